import type { localeFiles } from '@waitlist/contract';
import 'i18next';

/** The customer catalogue's keys type `t` on the join page (issue 28): a misspelt key does not compile. */
declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: (typeof localeFiles)['en']['messages'] };
  }
}
