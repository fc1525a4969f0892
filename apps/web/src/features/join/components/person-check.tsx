import { createElement, useEffect, useId, useRef, useState } from 'react';
import { FieldError } from '../../../components/ui/field.tsx';
import { challengeUrl } from '../api/join.ts';
import { useJoinWords } from './join-language.tsx';

type Loading = 'loading' | 'ready' | 'failed';

/** The widget speaks the page's language (issue 28): its words, from the catalogue, set as it shows. */
const setWidgetWords = (words: Record<string, string>) => {
  const { loading: _page, loadFailed: _failed, ...widgetWords } = words;
  globalThis.$altcha?.i18n.set('en', { ...globalThis.$altcha.i18n.get('en'), ...widgetWords });
};

/**
 * The widget, loaded once, on demand: the join page carries none of it until the server asks. The "external"
 * build with its PBKDF2 worker served from our own origin and its stylesheet as a file, because the app's
 * Content-Security-Policy allows no blob: workers (the default build makes its workers from blobs).
 */
let widgetModule: Promise<void> | undefined;
const loadWidget = () => {
  widgetModule ??= Promise.all([
    import('altcha/external'),
    import('altcha/workers/pbkdf2?worker'),
    import('altcha/altcha.css'),
  ]).then(
    ([, { default: Pbkdf2Worker }]) => {
      globalThis.$altcha.algorithms.set('PBKDF2/SHA-256', () => new Pbkdf2Worker());
    },
    (error: unknown) => {
      widgetModule = undefined;
      throw error;
    },
  );
  return widgetModule;
};

/**
 * The join page's check that a person is there (issue 24), shown only when the server asks for it: ALTCHA's
 * proof-of-work widget (a checkbox; the browser then works for a second or two), solving a challenge from our
 * own server. No outside service, no cookie. `onSolved` gets the payload to send, or null once it is no longer
 * good (expired, failed). Keyboard: the widget is a native checkbox in the tab order.
 */
export function PersonCheck({
  slug,
  error,
  onSolved,
}: {
  slug: string;
  error: string | undefined;
  onSolved: (payload: string | null) => void;
}) {
  const [loading, setLoading] = useState<Loading>('loading');
  const { t } = useJoinWords();
  const words = t('join.personCheck', { returnObjects: true });
  const widget = useRef<HTMLElement | null>(null);
  const errorId = `${useId()}-error`;
  const solved = useRef(onSolved);
  solved.current = onSolved;

  useEffect(() => {
    let live = true;
    loadWidget().then(
      () => live && setLoading('ready'),
      () => live && setLoading('failed'),
    );
    return () => {
      live = false;
    };
  }, []);

  // The widget's words are ours, from the catalogue (its own English stays for anything we do not name).
  if (loading === 'ready') setWidgetWords(words);

  useEffect(() => {
    const element = widget.current;
    if (loading !== 'ready' || !element) return;
    const onStateChange = (event: Event) => {
      const { state, payload } = (event as CustomEvent<{ state: string; payload?: string }>).detail;
      solved.current(state === 'verified' && payload ? payload : null);
    };
    element.addEventListener('statechange', onStateChange);
    return () => element.removeEventListener('statechange', onStateChange);
  }, [loading]);

  return (
    <div className="join__check field" aria-describedby={error ? errorId : undefined}>
      {loading === 'failed' ? (
        <p className="field__error" role="alert">
          {words.loadFailed}
        </p>
      ) : loading === 'loading' ? (
        <p className="muted" role="status">
          {words.loading}
        </p>
      ) : (
        createElement('altcha-widget', {
          ref: widget,
          challenge: challengeUrl(slug),
          // The form sends the payload itself (a JSON body), so the widget's hidden field is not used.
          name: 'altcha',
          configuration: JSON.stringify({ hideFooter: true }),
          style: { '--altcha-max-width': '100%' },
        })
      )}
      <FieldError id={errorId} error={error} />
    </div>
  );
}
