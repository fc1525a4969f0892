import { lazy, Suspense } from 'react';
import { useConfig } from '../../../lib/config.ts';
import type { SocialButtonsProps } from './social-buttons-panel.tsx';
import type { SocialProvider } from './use-social-attempt.ts';

export type { SocialButtonsProps, SocialProvider };

/** The buttons, their icons and the providers' sign-in code: a chunk of their own (issue 40). */
const SocialButtonsPanel = lazy(() =>
  import('./social-buttons-panel.tsx').then((module) => ({ default: module.SocialButtonsPanel })),
);

/**
 * "Continue with Google / Facebook / Apple" (SPEC §1, §7), offered only for the providers this server has a
 * client id for (GET /config). With none configured, or while GET /config is unanswered, nothing shows and
 * nothing of the providers' code is downloaded: the sign-in screen draws without it (issue 40).
 */
export function SocialButtons(props: SocialButtonsProps) {
  const config = useConfig().data;
  if (!config?.googleClientId && !config?.facebookAppId && !config?.appleClientId) return null;
  return (
    <Suspense fallback={null}>
      <SocialButtonsPanel {...props} />
    </Suspense>
  );
}
