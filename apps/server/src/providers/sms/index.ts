import type { SmsConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { Logger } from '../../lib/logger.ts';
import { createLocalSmsProvider } from './local.ts';
import { createPlivoSmsProvider } from './plivo.ts';
import type { SmsProvider } from './types.ts';

export type { NumberState, SmsProvider, SmsSendRequest, SmsSendResult } from './types.ts';
export { SmsProviderError } from './types.ts';

export function createSmsProvider(
  config: SmsConfig,
  deps: { db: Database; logger: Logger; publicUrl: string; logTexts?: boolean },
): SmsProvider {
  return config.provider === 'plivo'
    ? createPlivoSmsProvider({
        authId: config.authId,
        authToken: config.authToken,
        apiUrl: config.apiUrl,
        statusUrl: `${deps.publicUrl}/api/v1/webhooks/plivo/status`,
      })
    : createLocalSmsProvider(deps);
}
