//! The secret-field predicate's word lists, grouped by class and then by language.
//!
//! Data only: no logic and no I/O. Write words the way people write them (case, accents, hyphens,
//! camelCase and full-width forms do not matter): the predicate normalises both sides the same way
//! before comparing, and words match whole (Chinese, Japanese and Korean ones also inside a label).
//! Languages: en de fr es it pt nl pl ru uk tr ja zh ko. The policy classifier's lists of password,
//! one-time-code and card words started these; PINs, "code" fields and identifiers were added here.

pub use crate::words::WordList;

/// Password fields, by label, placeholder, `aria-label`, `name` or `id` (on top of `type=password`
/// and the autocomplete tokens).
pub const PASSWORD: WordList = &[
    (
        "en",
        &[
            "password",
            "passcode",
            "passwd",
            "pwd",
            "passphrase",
            "pass phrase",
        ],
    ),
    ("de", &["passwort", "kennwort"]),
    ("fr", &["mot de passe"]),
    ("es", &["contraseña", "clave de acceso"]),
    ("it", &["password", "parola d'ordine"]),
    ("pt", &["senha", "palavra-passe"]),
    ("nl", &["wachtwoord"]),
    ("pl", &["hasło"]),
    ("ru", &["пароль"]),
    ("uk", &["пароль"]),
    ("tr", &["şifre", "parola"]),
    ("ja", &["パスワード"]),
    ("zh", &["密码", "密碼", "口令"]),
    ("ko", &["비밀번호", "암호", "패스워드"]),
];

/// One-time codes and second factors.
pub const ONE_TIME_CODE: WordList = &[
    (
        "en",
        &[
            "one-time code",
            "one-time password",
            "one-time passcode",
            "otp",
            "totp",
            "verification code",
            "authentication code",
            "authenticator code",
            "auth code",
            "login code",
            "sign-in code",
            "sms code",
            "backup code",
            "recovery code",
            "2fa",
            "two-factor",
            "2-step",
            "mfa",
        ],
    ),
    (
        "de",
        &[
            "bestätigungscode",
            "verifizierungscode",
            "authentifizierungscode",
            "anmeldecode",
            "einmalcode",
            "einmalpasswort",
            "sms-code",
            "tan",
            "sms-tan",
        ],
    ),
    (
        "fr",
        &[
            "code de vérification",
            "code de confirmation",
            "code à usage unique",
            "mot de passe à usage unique",
            "code sms",
        ],
    ),
    (
        "es",
        &[
            "código de verificación",
            "código de confirmación",
            "código de un solo uso",
            "código sms",
        ],
    ),
    (
        "it",
        &[
            "codice di verifica",
            "codice di conferma",
            "codice monouso",
            "codice sms",
        ],
    ),
    (
        "pt",
        &["código de verificação", "código de confirmação", "código sms"],
    ),
    (
        "nl",
        &[
            "verificatiecode",
            "bevestigingscode",
            "eenmalige code",
            "sms-code",
        ],
    ),
    (
        "pl",
        &[
            "kod weryfikacyjny",
            "kod potwierdzający",
            "kod autoryzacyjny",
            "kod sms",
            "jednorazowy kod",
            "kod jednorazowy",
        ],
    ),
    (
        "ru",
        &[
            "код подтверждения",
            "одноразовый код",
            "одноразовый пароль",
            "код из смс",
            "код из sms",
            "смс-код",
            "sms-код",
        ],
    ),
    (
        "uk",
        &[
            "код підтвердження",
            "одноразовий код",
            "одноразовий пароль",
            "код з смс",
            "код із смс",
        ],
    ),
    (
        "tr",
        &[
            "doğrulama kodu",
            "onay kodu",
            "sms kodu",
            "tek kullanımlık şifre",
            "tek seferlik şifre",
        ],
    ),
    (
        "ja",
        &[
            "認証コード",
            "確認コード",
            "認証番号",
            "ワンタイムパスワード",
            "ワンタイムコード",
        ],
    ),
    ("zh", &["验证码", "驗證碼", "动态码", "动态密码", "校验码"]),
    ("ko", &["인증번호", "인증 코드", "인증코드", "일회용 비밀번호"]),
];

/// Personal identification numbers (cards, phones, banking apps).
pub const PIN: WordList = &[
    ("en", &["pin", "pin code", "pin number"]),
    ("de", &["pin", "geheimzahl"]),
    ("fr", &["code pin", "code confidentiel"]),
    ("es", &["pin", "código pin"]),
    ("it", &["pin", "codice pin"]),
    ("pt", &["pin", "código pin"]),
    ("nl", &["pincode", "pin"]),
    ("pl", &["pin", "kod pin"]),
    ("ru", &["пин", "пин-код", "pin-код"]),
    ("uk", &["пін", "пін-код", "pin-код"]),
    ("tr", &["pin", "pin kodu"]),
    ("ja", &["暗証番号", "pinコード"]),
    ("zh", &["pin码", "支付密码", "取款密码"]),
    ("ko", &["핀번호", "pin 번호", "간편비밀번호"]),
];

/// Payment card fields: the number, the security code (CVV, CVC, CSC), the expiry, the holder.
pub const CARD: WordList = &[
    (
        "en",
        &[
            "card number",
            "cardnumber",
            "card no",
            "cc number",
            "credit card",
            "debit card",
            "name on card",
            "cvv",
            "cvv2",
            "cvc",
            "cvc2",
            "csc",
            "security code",
            "expiry",
            "expiry date",
            "expiration date",
            "expiry month",
            "expiry year",
            "expiration month",
            "expiration year",
            "exp date",
            "valid thru",
            "mm/yy",
            "mm/yyyy",
        ],
    ),
    (
        "de",
        &[
            "kartennummer",
            "kreditkartennummer",
            "kreditkarte",
            "prüfziffer",
            "prüfnummer",
            "kartenprüfnummer",
            "sicherheitscode",
            "ablaufdatum",
            "gültig bis",
            "mm/jj",
        ],
    ),
    (
        "fr",
        &[
            "numéro de carte",
            "carte bancaire",
            "cryptogramme",
            "code de sécurité",
            "date d'expiration",
            "mm/aa",
        ],
    ),
    (
        "es",
        &[
            "número de tarjeta",
            "número de la tarjeta",
            "tarjeta de crédito",
            "código de seguridad",
            "fecha de caducidad",
            "fecha de vencimiento",
            "mm/aa",
        ],
    ),
    (
        "it",
        &[
            "numero della carta",
            "numero di carta",
            "carta di credito",
            "codice di sicurezza",
            "data di scadenza",
            "mm/aa",
        ],
    ),
    (
        "pt",
        &[
            "número do cartão",
            "cartão de crédito",
            "código de segurança",
            "validade",
            "data de validade",
            "mm/aa",
        ],
    ),
    (
        "nl",
        &[
            "kaartnummer",
            "creditcard",
            "beveiligingscode",
            "vervaldatum",
            "geldig tot",
            "mm/jj",
        ],
    ),
    (
        "pl",
        &[
            "numer karty",
            "karta kredytowa",
            "kod bezpieczeństwa",
            "data ważności",
            "mm/rr",
        ],
    ),
    (
        "ru",
        &[
            "номер карты",
            "номер банковской карты",
            "код безопасности",
            "срок действия",
            "мм/гг",
        ],
    ),
    (
        "uk",
        &[
            "номер картки",
            "номер банківської картки",
            "код безпеки",
            "термін дії",
            "мм/рр",
        ],
    ),
    (
        "tr",
        &[
            "kart numarası",
            "kredi kartı",
            "güvenlik kodu",
            "son kullanma tarihi",
            "aa/yy",
        ],
    ),
    ("ja", &["カード番号", "セキュリティコード", "有効期限", "月/年"]),
    (
        "zh",
        &[
            "卡号",
            "卡號",
            "银行卡号",
            "信用卡",
            "安全码",
            "安全碼",
            "有效期",
            "月/年",
        ],
    ),
    ("ko", &["카드 번호", "카드번호", "유효기간", "보안코드", "월/년"]),
];

/// Tokens that mark a secret only in a `name` or `id` (developers' abbreviations; as a label they
/// would be too vague: "Pass" may be a bus pass). Matched whole, after camelCase, `-`, `_`, `.` and a
/// letter followed by a digit are split: `userPass2` is `user pass 2`.
pub const PASSWORD_IDS: &[&str] = &["pass", "pw", "passw", "pword", "user pass", "login pass"];

/// As [`PASSWORD_IDS`], for one-time codes.
pub const ONE_TIME_CODE_IDS: &[&str] = &[
    "hotp",
    "tfa",
    "twofa",
    "two factor",
    "one time code",
    "onetime code",
    "onetimecode",
    "verify code",
    "verification",
    "mfa code",
];

/// As [`PASSWORD_IDS`], for PINs.
pub const PIN_IDS: &[&str] = &["pin", "pincode"];

/// As [`PASSWORD_IDS`], for card fields.
pub const CARD_IDS: &[&str] = &[
    "ccnum",
    "ccnumber",
    "cc num",
    "cardnum",
    "card num",
    "cardno",
    "card no",
    "ccv",
    "cc cvv",
    "cc csc",
    "cc exp",
    "ccexp",
    "exp month",
    "exp year",
    "exp date",
    "exp mm",
    "exp yy",
    "expdate",
    "expiration",
    "card exp",
    "card expiry",
    "card holder",
    "cardholder",
];

/// The word "code" itself. A label with it is a one-time code when it asks to enter the code or
/// names its digits ("Enter code", "6-digit code"), or when it is nothing but the word on a short
/// field; never with one of [`NOT_ONE_TIME`].
pub const CODE: WordList = &[
    ("en", &["code"]),
    ("de", &["code"]),
    ("fr", &["code"]),
    ("es", &["código"]),
    ("it", &["codice"]),
    ("pt", &["código"]),
    ("nl", &["code"]),
    ("pl", &["kod"]),
    ("ru", &["код"]),
    ("uk", &["код"]),
    ("tr", &["kod", "kodu", "kodunu"]),
    ("ja", &["コード"]),
    ("zh", &["代码", "代碼"]),
    ("ko", &["코드"]),
];

/// "Enter", "type in": a label asking the user for a code.
pub const ENTER: WordList = &[
    ("en", &["enter", "type", "input", "provide"]),
    ("de", &["eingeben", "geben sie", "eingabe"]),
    (
        "fr",
        &["saisissez", "saisir", "entrez", "entrer", "tapez", "saisie"],
    ),
    (
        "es",
        &[
            "introduce",
            "introduzca",
            "ingresa",
            "ingrese",
            "escribe",
            "escriba",
        ],
    ),
    ("it", &["inserisci", "inserire", "immetti", "digita"]),
    ("pt", &["digite", "insira", "informe", "introduza"]),
    ("nl", &["voer", "invoeren", "vul"]),
    ("pl", &["wpisz", "wprowadź", "podaj"]),
    ("ru", &["введите", "ввести", "укажите"]),
    ("uk", &["введіть", "вкажіть"]),
    ("tr", &["girin", "giriniz", "gir"]),
    ("ja", &["入力"]),
    ("zh", &["输入", "輸入"]),
    ("ko", &["입력"]),
];

/// "Digits": a label counting the digits of a code ("6-digit code").
pub const DIGITS: WordList = &[
    ("en", &["digit", "digits"]),
    ("de", &["stellig", "stelligen", "stelliger", "ziffern"]),
    ("fr", &["chiffres"]),
    ("es", &["dígitos"]),
    ("it", &["cifre"]),
    ("pt", &["dígitos"]),
    ("nl", &["cijfers", "cijferige"]),
    ("pl", &["cyfr", "cyfrowy"]),
    ("ru", &["цифр", "цифры", "значный"]),
    ("uk", &["цифр", "цифри"]),
    ("tr", &["haneli"]),
    ("ja", &["桁"]),
    ("zh", &["位数", "位数字"]),
    ("ko", &["자리"]),
];

/// "Sent", "by text message": a label about a code that was sent to the user.
pub const SENT: WordList = &[
    (
        "en",
        &["sms", "text message", "sent", "texted", "emailed", "received"],
    ),
    ("de", &["gesendet", "erhalten", "zugeschickt"]),
    ("fr", &["envoyé", "reçu"]),
    ("es", &["enviado", "enviamos", "recibido"]),
    ("it", &["inviato", "ricevuto"]),
    ("pt", &["enviado", "enviamos", "recebido"]),
    ("nl", &["verzonden", "gestuurd", "ontvangen"]),
    ("pl", &["wysłany", "wysłaliśmy", "otrzymany"]),
    ("ru", &["смс", "отправили", "отправленный", "пришёл"]),
    ("uk", &["смс", "надіслали", "надісланий"]),
    ("tr", &["gönderilen", "gönderdiğimiz"]),
    ("ja", &["送信", "ショートメッセージ"]),
    ("zh", &["发送", "短信"]),
    ("ko", &["발송", "문자"]),
];

/// Codes that are not secrets: promotions, addresses, telephone prefixes, invitations, parcels, bank
/// sort codes. One of these anywhere in a field's texts rules out the "code" readings above (never a
/// password, PIN or card word: "Gift card PIN" is still a PIN).
pub const NOT_ONE_TIME: WordList = &[
    (
        "en",
        &[
            "promo",
            "promotion",
            "promotional",
            "coupon",
            "discount",
            "voucher",
            "gift",
            "giftcard",
            "redeem",
            "postal",
            "post code",
            "postcode",
            "zip",
            "zipcode",
            "area",
            "country",
            "dialing",
            "dialling",
            "invite",
            "invitation",
            "referral",
            "referrer",
            "tracking",
            "sort",
            "source",
            "promocode",
            "couponcode",
            "swift",
            "bic",
            "product",
            "tax",
            "vat",
            "reference",
            "booking",
        ],
    ),
    (
        "de",
        &[
            "gutschein",
            "gutscheincode",
            "rabatt",
            "rabattcode",
            "aktionscode",
            "postleitzahl",
            "plz",
            "vorwahl",
            "ländercode",
            "einladungscode",
        ],
    ),
    (
        "fr",
        &[
            "code promo",
            "réduction",
            "postal",
            "bon",
            "cadeau",
            "parrainage",
            "indicatif",
        ],
    ),
    (
        "es",
        &[
            "promocional",
            "cupón",
            "descuento",
            "postal",
            "regalo",
            "referido",
            "país",
        ],
    ),
    (
        "it",
        &[
            "sconto",
            "promozionale",
            "buono",
            "postale",
            "cap",
            "regalo",
            "fiscale",
            "paese",
            "invito",
        ],
    ),
    (
        "pt",
        &[
            "promocional",
            "cupom",
            "cupão",
            "desconto",
            "postal",
            "cep",
            "presente",
            "indicação",
            "país",
        ],
    ),
    (
        "nl",
        &["kortingscode", "korting", "actiecode", "cadeaubon", "landcode"],
    ),
    (
        "pl",
        &[
            "rabatowy",
            "rabat",
            "promocyjny",
            "pocztowy",
            "kupon",
            "zniżka",
            "podarunkowy",
            "polecający",
            "kraju",
        ],
    ),
    (
        "ru",
        &[
            "промокод",
            "промо",
            "купон",
            "скидка",
            "скидки",
            "почтовый",
            "индекс",
            "подарочный",
            "приглашения",
            "реферальный",
            "страны",
        ],
    ),
    (
        "uk",
        &[
            "промокод",
            "купон",
            "знижка",
            "знижки",
            "поштовий",
            "індекс",
            "подарунковий",
            "запрошення",
            "країни",
        ],
    ),
    (
        "tr",
        &[
            "indirim",
            "kupon",
            "promosyon",
            "posta",
            "hediye",
            "davet",
            "ülke",
            "referans",
        ],
    ),
    (
        "ja",
        &[
            "クーポン",
            "割引",
            "プロモーション",
            "郵便番号",
            "招待",
            "ギフト",
            "紹介",
            "国番号",
        ],
    ),
    (
        "zh",
        &[
            "优惠",
            "折扣",
            "邮编",
            "邮政编码",
            "邀请",
            "礼品",
            "推荐",
            "区号",
            "国家代码",
        ],
    ),
    (
        "ko",
        &[
            "쿠폰",
            "할인",
            "프로모션",
            "우편번호",
            "초대",
            "추천",
            "선물",
            "국가",
        ],
    ),
];

/// Words in front of a search box's label ("Search passwords"): a search box is never secret by its
/// label, whatever it searches for.
pub const SEARCH: WordList = &[
    ("en", &["search", "filter"]),
    ("de", &["suche", "suchen", "filtern"]),
    ("fr", &["rechercher", "recherche", "filtrer"]),
    ("es", &["buscar", "búsqueda", "filtrar"]),
    ("it", &["cerca", "ricerca", "filtra"]),
    ("pt", &["pesquisar", "pesquisa", "buscar", "filtrar"]),
    ("nl", &["zoeken", "zoek", "filteren"]),
    ("pl", &["szukaj", "wyszukaj", "filtruj"]),
    ("ru", &["поиск", "искать"]),
    ("uk", &["пошук", "шукати"]),
    ("tr", &["ara", "arama"]),
    ("ja", &["検索"]),
    ("zh", &["搜索", "搜尋"]),
    ("ko", &["검색"]),
];

/// Whole `name` or `id` values of search boxes (`q` on most sites, `s` on WordPress).
pub const SEARCH_IDS: &[&str] = &["q", "s", "query", "search", "keyword", "keywords"];

/// Little words around "code" that do not change what it asks for ("Your code").
pub const FILLER: &[&str] = &[
    "your", "the", "my", "ihr", "ihren", "dein", "votre", "le", "tu", "su", "el", "il", "tuo", "o", "seu",
    "uw", "de", "twój", "ваш", "senin", "a", "un", "una", "um", "uma", "een",
];
