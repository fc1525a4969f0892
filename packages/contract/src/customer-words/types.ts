import type { MessageTemplateKey } from '../waitlist.messages.ts';

/** A text that names the business it comes from ("Bella Salon: …"). */
export type BusinessText = (business: string) => string;

/** The words a customer replies with that the server acts on, whatever the language. */
export type ReplyKeyword = 'stop' | 'start' | 'help' | 'join';

/**
 * Everything a customer reads or types, in one language (issue 25). Each locale file (`en.ts`, `es.ts`)
 * is declared as this type, so the type checker refuses a locale that lacks a word. Owner-facing words
 * (dashboards, errors the owner reads, labels in the inbox) are not here: they stay beside their screens.
 */
export interface CustomerWords {
  /** The BCP 47 tag `Intl` formats dates and times with ('en-US'). */
  intlLocale: string;
  /** How a slot reads in a text ("Tue, Nov 24 at 3:00 PM"): two `Intl` formats, then joined. */
  slotTime: {
    day: Intl.DateTimeFormatOptions;
    clock: Intl.DateTimeFormatOptions;
    join: (day: string, clock: string) => string;
    /**
     * The slot offered to a customer for their own service, not the slot's (issue 39): "Tue, Nov 24 at 2:00 PM
     * for your Blowout with Priya" (the stylist when the slot names one).
     */
    forYour: (time: string, service: string, staff: string | null) => string;
  };
  /** The texts the server sends on its own (not owner-edited). */
  texts: {
    /** What texts call a business that has no name yet. */
    unnamedBusiness: string;
    /** The one automatic answer to a free-text reply (at most one per customer per 24 hours). */
    autoAnswer: BusinessText;
    /** The answer to a stop keyword (sent although the customer has just opted out). */
    stopConfirmation: BusinessText;
    /** The answer to a start keyword. */
    startConfirmation: BusinessText;
    /** The answer to a help keyword. */
    help: BusinessText;
    /** The line the first text to a customer ends with (CTIA/TCPA opt-out notice). */
    optOutFooter: string;
    /** The join confirmation text (double opt-in): the customer's claim word makes them waiting. */
    joinRequest: BusinessText;
    /** The answer to that claim word: on the waitlist. */
    joinWelcome: BusinessText;
    /** The answer to that claim word when the waitlist filled up meanwhile. */
    joinFull: BusinessText;
    /** The answer to a stop keyword while a join request waited for the claim word. */
    joinStopped: BusinessText;
    /** The answer to a winner who backs out: the slot is let go, they stay on the waitlist. */
    backedOut: BusinessText;
    /**
     * The text a winner gets when the owner releases their claim (issue 39); {name} and {time} are filled in
     * as in the owner's templates, and the owner's added line follows.
     */
    released: BusinessText;
    /** The answer to a language word ("ESPAÑOL"), in the language just chosen (issue 28). */
    languageSwitched: BusinessText;
  };
  /** The default bodies of the owner-editable templates; placeholders {name} {business} {time}. */
  templates: Record<MessageTemplateKey, string>;
  /**
   * The keywords, as customers are told to type them. A reply is a stop, start or help keyword when its whole
   * text is one (after `normalizeReply`: case, punctuation and spaces do not count); join may be followed by
   * the customer's name ("JOIN Priya Shah"). The first of each list is the one texts tell customers to send
   * (a body that already names the first stop word gets no opt-out footer).
   */
  keywords: Record<ReplyKeyword, readonly string[]>;
  /**
   * Whole-text replies that switch a customer to this language ("ESPAÑOL" for Spanish, "ENGLISH" and
   * "INGLÉS" for English), read by `readLanguageSwitch` in any language, never by `readReply`.
   */
  languageWords: readonly string[];
  /** The claim words (see `readReply`): written as customers type them; `normalizeReply` compares them. */
  claim: {
    /** Words that say yes on their own ("yes", "ok"); several may follow one another ("ok yes"). */
    yesWords: readonly string[];
    /** Phrases that may follow the yes words, or (all but `politeOnly`) stand alone ("I'll take it"). */
    phrases: readonly string[];
    /** The phrases that claim only after a yes word ("yes please", never "please" alone). */
    politeOnly: readonly string[];
    /** Any of these words anywhere makes a reply not a claim ("no", "not yes", "yes but…"). */
    negatives: readonly string[];
  };
  /**
   * A winner backing out (issue 26): a reply holding one of these phrases ("Sorry, I can't make it") gives
   * the slot back, and it goes to the next customer. Compared after `normalizeReply`, as whole words.
   */
  backOut: readonly string[];
  /** The public join page (/join/:slug), its answers and the poster at the front desk. */
  join: JoinWords;
}

/** What a customer reads on the public join page and its poster. */
export interface JoinWords {
  nameRequired: string;
  phoneRequired: string;
  invalidPhone: string;
  consentRequired: string;
  notFound: string;
  full: BusinessText;
  cannotText: BusinessText;
  checkYourTexts: BusinessText;
  tooMany: string;
  /** A number the business may not text (another country, premium rate, toll-free…: issue 24). */
  notTextable: string;
  /** The business has as many unanswered confirmation texts out as it may have (issue 24). */
  busy: BusinessText;
  /** Several sign-ups came from this connection: the page asks for a quick check that a person is there. */
  proofRequired: string;
  proofFailed: string;
  /** The words of the page's "I'm not a robot" check (issue 24): our own, given to the ALTCHA widget. */
  personCheck: {
    loading: string;
    loadFailed: string;
    label: string;
    verifying: string;
    waitAlert: string;
    verified: string;
    verificationRequired: string;
    error: string;
    expired: string;
  };
  /** The consent wording shown beside the checkbox (and stored with the request). */
  consent: BusinessText;
  /** The page itself. */
  page: {
    eyebrow: string;
    loading: string;
    notFoundTitle: string;
    failedTitle: string;
    loadFailed: string;
    loadFailedRetry: string;
    tryAgain: string;
    formLabel: BusinessText;
    lead: string;
    nameLabel: string;
    phoneLabel: string;
    /** The service and staff choices (issue 26), shown when the business lists them. */
    serviceLabel: string;
    anyService: string;
    staffLabel: string;
    noPreference: string;
    optional: string;
    submit: string;
    sendFailed: string;
    doneTitle: string;
    noTextHint: string;
    fullTitle: string;
  };
  /** The printable poster's sheet (what customers read at the front desk). */
  poster: {
    headline: string;
    lead: string;
    qrAlt: (link: string) => string;
    /** "Or text JOIN to our number: (555) 123-4567.", shown only once the business has a text number. */
    textJoin: (number: string) => string;
    smallPrint: string;
  };
}

/**
 * A catalogue message as i18next keeps it: each text that names something (`BusinessText`, the poster's link
 * and number) is one string with its placeholder, "{{business}}: Thanks for your message!…".
 */
export type Messages<T> = {
  [K in keyof T]: T[K] extends (value: string) => string
    ? string
    : T[K] extends string
      ? string
      : Messages<T[K]>;
};

/**
 * One language's file (`en.ts`, `es.ts`): the messages i18next renders, and the words replies are read by.
 * `catalogue.ts` turns it into the `CustomerWords` every caller uses, so texts are rendered by i18next on the
 * server and on the join page alike.
 */
export interface LocaleFile extends Omit<CustomerWords, 'slotTime' | 'texts' | 'templates' | 'join'> {
  slotTime: Omit<CustomerWords['slotTime'], 'join' | 'forYour'>;
  messages: Messages<Pick<CustomerWords, 'texts' | 'templates' | 'join'>> & {
    /**
     * "{{day}} at {{clock}}": with the plural forms by the hour where the language needs them (Spanish
     * "a la 1:00", "a las 3:00"), which i18next picks by `Intl.PluralRules`.
     */
    slotTime: Record<string, string>;
  };
}
