import type { LocaleFile } from './types.ts';

/** English (US): every word a customer reads or types (issue 25). */
export const en: LocaleFile = {
  intlLocale: 'en-US',
  slotTime: {
    day: { weekday: 'short', month: 'short', day: 'numeric' },
    clock: { hour: 'numeric', minute: '2-digit' },
  },

  // The carriers' standard opt-out and help words (CTIA), and ours to join.
  keywords: {
    stop: ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'],
    start: ['START', 'UNSTOP'],
    help: ['HELP'],
    join: ['JOIN'],
  },
  // "English" in English and in Spanish, accent or none: the words that switch a customer to English.
  languageWords: ['ENGLISH', 'INGLÉS', 'INGLES'],

  // A claim: yes words, then at most one phrase ("Yes please!", "OK I'll take it"), or a phrase alone
  // ("book me", "mine"). Never a question, a negative, or a yes with anything else after it.
  claim: {
    yesWords: [
      'yes',
      'y',
      'ye',
      'yep',
      'yup',
      'yeah',
      'yea',
      'ya',
      'yas',
      'ok',
      'okay',
      'okey',
      'k',
      'sure',
      'absolutely',
      'definitely',
    ],
    phrases: [
      'please',
      'pls',
      'plz',
      'thanks',
      'thank you',
      'thx',
      "I'll take it",
      'I will take it',
      'I can take it',
      'I want it',
      "I'd like it",
      'I would like it',
      'please book me',
      'book me',
      'book me in',
      'book it',
      'count me in',
      "I'm in",
      'sounds good',
      'me',
      'mine',
      'me please',
    ],
    politeOnly: ['please', 'pls', 'plz', 'thanks', 'thank you', 'thx', 'sounds good'],
    negatives: ['no', 'not', 'nope', 'nah', "can't", 'cannot', "don't", "won't", 'never', 'but'],
  },

  backOut: [
    "can't come",
    'cannot come',
    "can't make it",
    'cannot make it',
    "won't make it",
    'will not make it',
    "won't be able to come",
    "can't go",
    'not coming',
    'no longer come',
    'no longer make it',
    'need to cancel',
    'have to cancel',
    'cancel my slot',
    'cancel my spot',
    'cancel my appointment',
  ],

  // What i18next renders: {{business}}, {{link}}, {{number}}, {{day}} and {{clock}} are filled in by it;
  // {name} {business} {time} in templates are the owner's placeholders, filled in when a text is sent.
  messages: {
    slotTime: {
      at: '{{day}} at {{clock}}',
      forYour: '{{time}} for your {{service}}',
      forYourWith: '{{time}} for your {{service}} with {{staff}}',
    },
    texts: {
      unnamedBusiness: 'Your business',
      autoAnswer: '{{business}}: Thanks for your message! We got it and will reply to you here soon.',
      stopConfirmation:
        '{{business}}: You have been unsubscribed and will receive no more texts. Reply START to subscribe again.',
      startConfirmation: '{{business}}: You are subscribed to texts again. Reply STOP to opt out.',
      help: '{{business}}: texts about your waitlist and openings. Reply STOP to opt out, START to opt back in. Msg & data rates may apply.',
      optOutFooter: 'Reply STOP to opt out',
      joinRequest: '{{business}}: Reply YES to join the waitlist at {{business}}. Reply STOP to opt out.',
      joinWelcome:
        "{{business}}: You're on the waitlist! We'll text you when a slot opens. Reply STOP to opt out.",
      joinFull: '{{business}}: Sorry, the waitlist is full right now. Please try again later.',
      joinStopped:
        '{{business}}: You will not be added to the waitlist and will get no more texts. Reply JOIN to start again.',
      backedOut:
        "{{business}}: No problem, we've let that slot go. You're still on the waitlist for the next one.",
      released:
        "{{business}}: Sorry {name}, your {time} spot is no longer booked for you. You're still on the waitlist for the next one.",
      languageSwitched:
        "{{business}}: OK, we'll text you in English from now on. Reply ESPAÑOL for texts in Spanish.",
    },

    templates: {
      confirmation: 'Hi {name}, your appointment at {business} is confirmed for {time}.',
      reminder: 'Hi {name}, a reminder of your appointment at {business} on {time}.',
      cancellation_alert:
        'Hi {name}, a spot just opened at {business}: {time}. Reply YES to claim it. First to reply gets it.',
      claimed: "You got it, {name}! You're booked at {business} for {time}. See you then.",
      already_filled:
        'Sorry {name}, the {time} spot at {business} has already been filled. We will text you when another opens.',
    },

    join: {
      nameRequired: 'Please enter your name',
      phoneRequired: 'Please enter your mobile number',
      invalidPhone: 'Please enter a valid mobile number, for example (555) 123-4567',
      consentRequired: 'Please tick the box to agree to texts',
      notFound: 'This waitlist link is not valid. Ask the business for its current link.',
      full: 'The waitlist at {{business}} is full right now. Please try again later, or call the business.',
      cannotText: '{{business}} cannot take sign-ups by text right now. Please call the business to join.',
      checkYourTexts: 'Check your texts: reply YES to the message from {{business}} to join the waitlist.',
      tooMany: 'Too many sign-ups from here. Please try again later.',
      notTextable:
        'Please enter a mobile number from this business’s country. Toll-free, premium-rate and satellite numbers cannot get texts.',
      busy: '{{business}} has many sign-ups waiting for a reply right now. Please try again tomorrow, or call the business.',
      proofRequired: 'Please tick “I’m not a robot”, then send again.',
      proofFailed: 'The check that you are a person did not work. Please tick the box again, then send.',
      personCheck: {
        loading: 'Loading a quick check…',
        loadFailed: 'The check could not be loaded. Please check your connection and reload the page.',
        label: 'I’m not a robot',
        verifying: 'Checking…',
        waitAlert: 'Checking… please wait a moment.',
        verified: 'Done: you can send now',
        verificationRequired: 'Please tick “I’m not a robot” first.',
        error: 'The check did not work. Please tick the box again.',
        expired: 'The check ran out of time. Please tick the box again.',
      },
      consent:
        'I agree to receive texts from {{business}} about openings on its waitlist. Message frequency varies. Msg & data rates may apply. Reply STOP to opt out, HELP for help.',
      page: {
        eyebrow: 'Waitlist',
        loading: 'Loading',
        notFoundTitle: 'Link not found',
        failedTitle: 'Something went wrong',
        loadFailed: 'This page could not be loaded.',
        loadFailedRetry: 'This page could not be loaded. Please try again.',
        tryAgain: 'Try again',
        formLabel: 'Join the waitlist at {{business}}',
        lead: 'Get a text when an earlier appointment opens up. The first to reply YES gets the slot.',
        nameLabel: 'Your name',
        phoneLabel: 'Mobile number',
        serviceLabel: 'Service',
        anyService: 'Any service',
        staffLabel: 'Who would you like to see?',
        noPreference: 'No preference',
        optional: '(optional)',
        submit: 'Join the waitlist',
        sendFailed: 'Your request could not be sent. Please try again.',
        doneTitle: 'Almost there',
        noTextHint: 'Didn’t get a text within a minute? Check the number and try again.',
        fullTitle: 'The waitlist is full',
      },
      poster: {
        headline: 'Want an earlier appointment?',
        lead: 'Scan to join our waitlist. We text you when a slot opens.',
        qrAlt: 'QR code for {{link}}',
        textJoin: 'Or text JOIN to our number: {{number}}.',
        smallPrint: 'Msg & data rates may apply. Reply STOP to opt out.',
      },
    },
  },
};
