/**
 * The words mail clients write around quoted history, in the languages of their localized headers
 * (English, German, French, Spanish, Italian, Dutch, Portuguese, Polish, Czech, Swedish, Danish,
 * Norwegian, Finnish, Russian, Ukrainian, Hungarian, Turkish, Greek, Vietnamese, Chinese, Japanese,
 * Korean). All lower-case; compared with lower-cased text.
 */

export const list = (words: string) => words.split('|');

/** Field names of a quoted message's header block (Outlook's From:/Sent:/To:/Subject:), by role. */
export const FIELD_NAMES: Record<'from' | 'date' | 'to' | 'cc' | 'subject', string[]> = {
  from: list(
    'from|von|de|da|van|od|från|fra|frá|lähettäjä|от|від|feladó|kimden|από|发件人|寄件者|差出人|보낸 사람|' +
      'afzender|expéditeur|remitente|mittente|nadawca|odesílatel|saatja|sender|отправитель|envoyé par|' +
      'gönderen',
  ),
  date: list(
    'sent|date|datum|gesendet|envoyé|enviado|enviada|inviato|verzonden|verstuurd|wysłano|wysłane|' +
      'data|skickat|sendt|lähetetty|päivämäärä|отправлено|дата|надіслано|elküldve|dátum|tarih|' +
      'gönderildi|ημερομηνία|στάλθηκε|fecha|odesláno|发送时间|日期|寄件日期|送信日時|날짜|보낸 날짜|sent at|date sent|' +
      'ngày gửi|dato|message du',
  ),
  to: list(
    'to|an|à|a|para|aan|do|komu|till|til|vastaanottaja|кому|címzett|kime|alıcı|προς|收件人|宛先|받는 사람|' +
      'destinataire|destinatario|người nhận|recipient|adresat|adresát',
  ),
  cc: list('cc|kopie|copie|kopia|kopio|копия|másolat|bilgi|κοιν|抄送|副本'),
  subject: list(
    'subject|betreff|objet|asunto|oggetto|onderwerp|temat|předmět|ämne|emne|aihe|тема|tárgy|konu|' +
      'θέμα|主题|主旨|件名|제목|assunto|sujet|chủ đề|tiêu đề',
  ),
};

/**
 * How quote headers end: "On … wrote:", "Am … schrieb …:", "Le … a écrit :" and their kin, after
 * trailing colons, dashes and spaces are removed.
 */
export const WROTE = list(
  'wrote|writes|sent|schrieb|geschrieben|a écrit|escribió|ha scritto|scrisse|schreef|' +
    'het volgende geschreven|napisał|napisała|napisał(a)|pisze|skrev|kirjoitti|написал|написала|' +
    'написал(а)|пише|написав|escreveu|đã viết|寫道|写道|のメッセージ|yazdı|írta|napsal|napsala|napsal(a)|' +
    'έγραψε|kirjutas|rašė|rakstīja|skrifaði|a scris|napisao je|napisala je|je napisal|har skrivit|' +
    'kirjoitti viestin|님이 작성|작성|كتب|كتبت|wrote on',
);

/** Separators that open a quoted message, without their dashes and trailing colon. */
export const SEPARATORS = list(
  "original message|reply message|original|message|ursprüngliche nachricht|antwort nachricht|message d'origine|" +
    'oprindelig meddelelse|message original|mensaje original|messaggio originale|oorspronkelijk bericht|' +
    'origineel bericht|wiadomość oryginalna|oryginalna wiadomość|исходное сообщение|původní zpráva|' +
    'alkuperäinen viesti|opprinnelig melding|originalmeddelande|ursprungligt meddelande|mensagem original|' +
    'oprindelig besked|eredeti üzenet|orijinal mesaj|özgün ileti|αρχικό μήνυμα|原始邮件|原始郵件|元のメッセージ|원본 메시지|thư gốc',
);

/**
 * Separators that open a forwarded message. A forward below the customer's words is history like a
 * quote (the original keeps it); a forward with nothing above it stays whole (never an empty message).
 */
export const FORWARDS = list(
  'forwarded message|begin forwarded message|weitergeleitete nachricht|' +
    'anfang der weitergeleiteten nachricht|videresendt meddelelse|message transféré|' +
    'début du message réexpédié|début du message transféré|mensaje reenviado|' +
    'inicio del mensaje reenviado|messaggio inoltrato|inizio messaggio inoltrato|' +
    'doorgestuurd bericht|begin doorgestuurd bericht|wiadomość przekazana|пересылаемое сообщение|' +
    'пересланное сообщение|přeposlaná zpráva|välitetty viesti|videresendt melding|' +
    'vidarebefordrat meddelande|mensagem encaminhada|início da mensagem reencaminhada|' +
    'továbbított üzenet|προωθημένο μήνυμα|转发的邮件|転送されたメッセージ',
);

/**
 * How mobile and desktop clients sign what they send ("Sent from my iPhone"): a short last line that
 * starts with one of these is the client's signature, not the customer's words.
 */
export const SENT_FROM = list(
  'sent from|sent via|sent with|sent using|sent on my|get outlook for|get outlook|von meinem|' +
    'gesendet von|gesendet mit|envoyé de mon|envoyé depuis|envoyé à partir de|enviado desde|' +
    'enviado do meu|enviado de meu|enviado de mi|enviado con|inviato da|inviato dal|verzonden vanaf|' +
    'verstuurd vanaf|verzonden met|verstuurd met|отправлено с|отправлено из|надіслано з|wysłane z|' +
    "wysłano z|skickat från|sendt fra|lähetetty|odesláno z|küldve|iphone’umdan|iphone'umdan|" +
    'από το iphone|从我的|發自我的|iphoneから送信|my iphone から送信|verzonden vanuit|trimis de pe|az iphone|' +
    'أُرسلت من|أرسلت من|envoyé avec',
);

/** Words that mark a closing legal or confidentiality notice. */
export const DISCLAIMER = list(
  'confidential|intended recipient|intended solely|privileged|disclaimer|' +
    'received this message in error|received this email in error|received this e-mail in error|' +
    'scanned for viruses|scanned for malware|virus-free|virus free|' +
    'views or opinions|solely those of the author|do not necessarily represent|' +
    'vertraulich|vertrouwelijk|confidentiel|confidencial|riservat',
);

/** Headings a notice is put under ("Disclaimer", "Confidentiality Notice"). */
export const NOTICE_HEADINGS = list('disclaimer|notice|confidential|confidentiality|legal|haftungsausschluss');

/** What a mail gateway's warning above a mail says: that it came from outside… */
export const EXTERNAL_BANNER = list(
  'originated from outside|from outside of|from outside your|from outside the|external sender|' +
    'external email|external e-mail|outside your organization|outside of your organization|outside the organization|' +
    'von außerhalb|extérieur de|fuera de la organización|buiten de organisatie',
);
/** …and what it warns about. */
export const EXTERNAL_BANNER_ADVICE = list(
  'click|link|attachment|sender|phishing|caution|links|anhänge|pièces jointes|adjuntos|bijlagen',
);

/**
 * Closing words on a line of their own ("Best regards,", "Mit freundlichen Grüßen"): with only a name
 * below they are the customer's sign-off; with a name and a title or company below, a signature file's.
 */
export const VALEDICTIONS = list(
  'regards|best regards|kind regards|warm regards|warmest regards|best|all the best|best wishes|cheers|thanks|' +
    'thank you|many thanks|thanks again|sincerely|yours sincerely|sincerely yours|yours truly|yours|cordially|' +
    'respectfully|mit freundlichen grüßen|mit freundlichen grüssen|freundliche grüße|freundliche grüsse|' +
    'viele grüße|viele grüsse|beste grüße|beste grüsse|liebe grüße|grüße|gruß|met vriendelijke groet|' +
    'met vriendelijke groeten|vriendelijke groet|groeten|groet|cordialement|bien cordialement|bien à vous|' +
    'salutations|saludos|saludos cordiales|un saludo|atentamente|cordiali saluti|distinti saluti|saluti|' +
    'atenciosamente|cumprimentos|pozdrawiam|z poważaniem|z powazaniem|med vänlig hälsning|vänliga hälsningar|' +
    'hälsningar|med venlig hilsen|venlig hilsen|mvh|hilsen|med vennlig hilsen|vennlig hilsen|' +
    'ystävällisin terveisin|terveisin|s pozdravem|с уважением|üdvözlettel|saygılarımla',
);
