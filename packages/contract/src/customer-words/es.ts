import type { LocaleFile } from './types.ts';

/**
 * Spanish (US): every word a customer reads or types (issue 28), written the way a US Spanish speaker texts:
 * "tú", short, "cita" for a slot, "lista de espera" for the waitlist. Placeholders stay {name} {business} {time}.
 *
 * Segments measured by `spanish-segments.test.ts` (business "Studio Lumen", sample name "Alexandra", the slot
 * "mié, 25 de nov a las 12:30 p.m. (Tratamiento de hidratación profunda y secado)", the first-text footer
 * added), with accents → with plain letters (á → a, which keeps the text GSM-7):
 *   texts: every one 1 GSM-7 → 1 (issue 39: written without á í ó ú);
 *   templates: confirmation, reminder, cancellation_alert, claimed 3 UCS-2 → 2 GSM-7; already_filled 4 UCS-2 → 2,
 *   only because the sample's owner-typed service has "hidratación"; the words themselves are GSM-7.
 * One á, í, ó or ú (or "SÍ", or a Saturday's "sáb") makes a whole text UCS-2; é, ñ, ü, ¿ and ¡ do not. So the
 * default texts (issue 39) choose words without them ("SI" written as the reply keyword, as Spanish SMS programs
 * write it; `readReply` reads "sí" and "si" alike) and stay within the English texts' segments, which
 * `default-texts-cost.test.ts` proves; a Saturday ("sáb") is the one case good Spanish cannot avoid.
 *
 * Keywords: English STOP/START/HELP/JOIN work for every customer (`readReply` reads every catalogue); the
 * Spanish ones are only those carrier guidance names (see `keywords` below).
 */
/** Tails only, never a claim alone: the polite words, and "que sí" ("claro que sí"). */
const POLITE_ONLY = [
  'por favor',
  'porfa',
  'porfavor',
  'gracias',
  'muchas gracias',
  'perfecto',
  'de acuerdo',
  'que sí',
] as const;

export const es: LocaleFile = {
  intlLocale: 'es-US',
  slotTime: {
    day: { weekday: 'short', month: 'short', day: 'numeric' },
    clock: { hour: 'numeric', minute: '2-digit' },
  },

  // English STOP/START/HELP/JOIN work for everyone (`readReply` reads every catalogue). Spanish opt-out and
  // help words: only ALTO and AYUDA, the two carrier guidance requires a Spanish-language program to answer
  // (https://www.twilio.com/help/faq/short-codes/what-are-the-requirements-for-a-spanish-language-short-code).
  // No source names a Spanish start word (Plivo's opt-in words are START, YES, RESUME, UNSTOP, GO:
  // https://www.plivo.com/docs/sms/concepts/dnd-service/), so Spanish texts tell customers START. PARAR and
  // CANCELAR are not opt-out words: no carrier or Plivo page lists them, and "cancelar mi cita" is a back-out.
  // UNIRME ("join me") is ours, like JOIN: the word the Spanish poster and texts tell customers to send.
  keywords: {
    stop: ['ALTO'],
    start: ['START'],
    help: ['AYUDA'],
    join: ['UNIRME', 'UNIRSE'],
  },
  languageWords: ['ESPAÑOL', 'ESPANOL', 'SPANISH'],

  // The same rules as English: yes words, then at most one phrase ("sí, lo quiero", "dale porfa"), or a phrase
  // alone ("me apunto"). Accents may be missing ("si", "apartamela"): `readReply` accepts both.
  claim: {
    yesWords: ['sí', 'claro', 'va', 'dale', 'vale', 'órale', 'ok', 'okey', 'okay', 'ándale'],
    phrases: [
      ...POLITE_ONLY,
      'por supuesto',
      'lo quiero',
      'la quiero',
      'yo lo quiero',
      'yo la quiero',
      'sí lo quiero',
      'me apunto',
      'yo me apunto',
      'me la quedo',
      'me lo quedo',
      'la tomo',
      'lo tomo',
      'yo la tomo',
      'apártamela',
      'resérvamela',
      'cuenta conmigo',
      'para mí',
    ],
    politeOnly: POLITE_ONLY,
    negatives: ['no', 'nunca', 'jamás', 'pero', 'tampoco', 'ni'],
  },

  backOut: [
    'no puedo ir',
    'ya no puedo',
    'no voy a poder',
    'no podré ir',
    'no puedo llegar',
    'no voy a llegar',
    'no alcanzo a llegar',
    'ya no voy',
    'tengo que cancelar',
    'necesito cancelar',
    'quiero cancelar',
    'cancelar mi cita',
    'cancela mi cita',
    'cancelo mi cita',
  ],

  // What i18next renders: {{business}}, {{link}}, {{number}}, {{day}} and {{clock}} are filled in by it;
  // {name} {business} {time} in templates are the owner's placeholders, filled in when a text is sent.
  messages: {
    // "mar, 24 de nov a las 3:30 p.m.", but "a la 1:00 p.m.": the hour's plural form, by Intl.PluralRules.
    slotTime: {
      at_one: '{{day}} a la {{clock}}',
      at_other: '{{day}} a las {{clock}}',
      forYour: '{{time}} para tu {{service}}',
      forYourWith: '{{time}} para tu {{service}} con {{staff}}',
    },
    texts: {
      unnamedBusiness: 'Tu negocio',
      autoAnswer: '{{business}}: ¡Gracias por tu mensaje! Ya lo recibimos y te contestaremos pronto.',
      stopConfirmation:
        '{{business}}: Te diste de baja y ya no te enviaremos mensajes. Responde START para volver a suscribirte.',
      startConfirmation:
        '{{business}}: Volviste a suscribirte a los mensajes. Responde ALTO para darte de baja.',
      help: '{{business}}: avisos de tu lista de espera. Responde ALTO o STOP para darte de baja, START para volver. Pueden aplicar tarifas de mensajes y datos.',
      optOutFooter: 'Responde ALTO para darte de baja',
      joinRequest:
        '{{business}}: Responde SI para unirte a la lista de espera de {{business}}. Responde ALTO para darte de baja.',
      joinWelcome:
        '{{business}}: ¡Listo! Ya te agregamos a la lista de espera. Te avisaremos cuando se libere una cita. Responde ALTO para darte de baja.',
      joinFull:
        '{{business}}: Lo sentimos, por ahora no hay lugar en la lista de espera. Vuelve a intentarlo luego.',
      joinStopped:
        '{{business}}: No te agregaremos a la lista de espera y no te enviaremos mensajes. Responde UNIRME para empezar de nuevo.',
      backedOut:
        '{{business}}: No te preocupes, liberamos esa cita. Sigues en la lista de espera para la siguiente.',
      released:
        '{{business}}: Lo sentimos, {name}, tu cita de {time} ya no queda apartada para ti. Sigues en la lista de espera para la siguiente.',
      languageSwitched:
        '{{business}}: Listo, desde ahora te escribiremos en español. Responde ENGLISH para volver al inglés.',
    },

    templates: {
      confirmation: 'Hola {name}, confirmamos tu cita en {business}: {time}.',
      reminder: 'Hola {name}, te recordamos tu cita en {business}: {time}.',
      cancellation_alert: 'Hola {name}, cita libre en {business}: {time}. Es para quien responda SI primero.',
      claimed: '¡Listo, {name}! La cita es tuya: {business}, {time}. ¡Te esperamos!',
      already_filled:
        'Lo sentimos, {name}, ya apartaron la cita de {time} en {business}. Te avisaremos de la siguiente.',
    },

    join: {
      nameRequired: 'Escribe tu nombre',
      phoneRequired: 'Escribe tu número de celular',
      invalidPhone: 'Escribe un número de celular válido, por ejemplo (555) 123-4567',
      consentRequired: 'Marca la casilla para aceptar los mensajes de texto',
      notFound: 'Este enlace de lista de espera no es válido. Pídele al negocio su enlace actual.',
      full: 'La lista de espera de {{business}} está llena por ahora. Inténtalo más tarde o llama al negocio.',
      cannotText:
        '{{business}} no puede recibir inscripciones por mensaje de texto en este momento. Llama al negocio para unirte.',
      checkYourTexts:
        'Revisa tus mensajes: responde SÍ al mensaje de {{business}} para unirte a la lista de espera.',
      tooMany: 'Hay demasiadas inscripciones desde aquí. Inténtalo más tarde.',
      notTextable:
        'Escribe un número de celular del país del negocio. Los números gratuitos (800), de tarifa especial y satelitales no pueden recibir mensajes.',
      busy: '{{business}} tiene muchas inscripciones esperando respuesta en este momento. Inténtalo mañana o llama al negocio.',
      proofRequired: 'Marca “No soy un robot” y vuelve a enviar.',
      proofFailed: 'No pudimos comprobar que eres una persona. Marca la casilla otra vez y envía.',
      personCheck: {
        loading: 'Cargando una comprobación rápida…',
        loadFailed: 'No se pudo cargar la comprobación. Revisa tu conexión y vuelve a cargar la página.',
        label: 'No soy un robot',
        verifying: 'Comprobando…',
        waitAlert: 'Comprobando… espera un momento.',
        verified: 'Listo: ya puedes enviar',
        verificationRequired: 'Primero marca “No soy un robot”.',
        error: 'La comprobación no funcionó. Marca la casilla otra vez.',
        expired: 'Se acabó el tiempo de la comprobación. Marca la casilla otra vez.',
      },
      consent:
        'Acepto recibir mensajes de texto de {{business}} sobre citas disponibles de su lista de espera. La frecuencia de los mensajes varía. Pueden aplicar tarifas de mensajes y datos. Responde ALTO para darte de baja y AYUDA para obtener ayuda.',
      page: {
        eyebrow: 'Lista de espera',
        loading: 'Cargando',
        notFoundTitle: 'Enlace no encontrado',
        failedTitle: 'Algo salió mal',
        loadFailed: 'No se pudo cargar esta página.',
        loadFailedRetry: 'No se pudo cargar esta página. Inténtalo de nuevo.',
        tryAgain: 'Intentar de nuevo',
        formLabel: 'Únete a la lista de espera de {{business}}',
        lead: 'Te avisamos por mensaje de texto cuando se libere una cita antes. La primera persona en responder SÍ se la queda.',
        nameLabel: 'Tu nombre',
        phoneLabel: 'Número de celular',
        serviceLabel: 'Servicio',
        anyService: 'Cualquier servicio',
        staffLabel: '¿Con quién prefieres tu cita?',
        noPreference: 'Sin preferencia',
        optional: '(opcional)',
        submit: 'Unirme a la lista de espera',
        sendFailed: 'No se pudo enviar tu solicitud. Inténtalo de nuevo.',
        doneTitle: 'Ya casi',
        noTextHint: '¿No te llegó un mensaje en un minuto? Revisa el número e inténtalo de nuevo.',
        fullTitle: 'La lista de espera está llena',
      },
      poster: {
        headline: '¿Quieres una cita antes?',
        lead: 'Escanea para unirte a nuestra lista de espera. Te avisamos por mensaje cuando se libere una cita.',
        qrAlt: 'Código QR de {{link}}',
        textJoin: 'O envía UNIRME por mensaje de texto a nuestro número: {{number}}.',
        smallPrint: 'Pueden aplicar tarifas de mensajes y datos. Responde ALTO para darte de baja.',
      },
    },
  },
};
