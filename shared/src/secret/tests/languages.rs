//! Labels per language, several cases each, in the fourteen languages of the policy.

use super::*;

// --- words, per language ----------------------------------------------------------------------------

#[test]
fn english_labels() {
    check(
        &[
            ("Password", Some(Password)),
            ("Confirm password", Some(Password)),
            ("Passcode", Some(Password)),
            ("One-time password", Some(Otp)),
            ("Verification code", Some(Otp)),
            ("2FA code", Some(Otp)),
            ("Backup code", Some(Otp)),
            ("PIN", Some(Pin)),
            ("Enter your PIN", Some(Pin)),
            ("Card number", Some(Card)),
            ("CVV", Some(Card)),
            ("CVC2", Some(Card)),
            ("Security code", Some(Card)),
            ("MM/YY", Some(Card)),
            ("MM / YYYY", Some(Card)),
            ("Expiry date", Some(Card)),
            ("Name on card", Some(Card)),
            ("Email", None),
            ("Full name", None),
            ("Passport number", None),
            ("Pinned note", None),
            ("Shipping address", None),
            ("Passwordless sign-in email", None),
        ],
        labelled,
    );
}

#[test]
fn german_labels() {
    check(
        &[
            ("Passwort", Some(Password)),
            ("Kennwort wiederholen", Some(Password)),
            ("Bestätigungscode", Some(Otp)),
            ("SMS-TAN", Some(Otp)),
            ("Geheimzahl", Some(Pin)),
            ("PIN-Code", Some(Pin)),
            ("Kartennummer", Some(Card)),
            ("Prüfziffer", Some(Card)),
            ("Gültig bis (MM/JJ)", Some(Card)),
            ("Vorname", None),
            ("Gutscheincode", None),
        ],
        labelled,
    );
}

#[test]
fn french_labels() {
    check(
        &[
            ("Mot de passe", Some(Password)),
            ("Code de vérification", Some(Otp)),
            ("Code reçu par SMS", Some(Otp)),
            ("Code PIN", Some(Pin)),
            ("Code confidentiel", Some(Pin)),
            ("Numéro de carte", Some(Card)),
            ("Cryptogramme visuel", Some(Card)),
            ("Date d’expiration", Some(Card)),
            ("Code postal", None),
            ("Code promo", None),
        ],
        labelled,
    );
}

#[test]
fn spanish_labels() {
    check(
        &[
            ("Contraseña", Some(Password)),
            ("Contrasena", Some(Password)),
            ("Código de verificación", Some(Otp)),
            ("Introduce el código", Some(Otp)),
            ("Código PIN", Some(Pin)),
            ("Número de tarjeta", Some(Card)),
            ("Fecha de caducidad", Some(Card)),
            ("Código postal", None),
            ("Código de descuento", None),
        ],
        labelled,
    );
}

#[test]
fn italian_labels() {
    check(
        &[
            ("Password", Some(Password)),
            ("Codice di verifica", Some(Otp)),
            ("Inserisci il codice", Some(Otp)),
            ("Codice PIN", Some(Pin)),
            ("Numero della carta", Some(Card)),
            ("Data di scadenza", Some(Card)),
            ("Codice sconto", None),
            ("Codice fiscale", None),
        ],
        labelled,
    );
}

#[test]
fn portuguese_labels() {
    check(
        &[
            ("Senha", Some(Password)),
            ("Palavra-passe", Some(Password)),
            ("Código de verificação", Some(Otp)),
            ("Digite o código", Some(Otp)),
            ("Código PIN", Some(Pin)),
            ("Número do cartão", Some(Card)),
            ("Código de segurança", Some(Card)),
            ("Cupom", None),
            ("Código promocional", None),
        ],
        labelled,
    );
}

#[test]
fn dutch_labels() {
    check(
        &[
            ("Wachtwoord", Some(Password)),
            ("Verificatiecode", Some(Otp)),
            ("Voer de code in", Some(Otp)),
            ("Pincode", Some(Pin)),
            ("Kaartnummer", Some(Card)),
            ("Vervaldatum", Some(Card)),
            ("Kortingscode", None),
            ("Postcode", None),
        ],
        labelled,
    );
}

#[test]
fn polish_labels() {
    check(
        &[
            ("Hasło", Some(Password)),
            ("Haslo", Some(Password)),
            ("Kod weryfikacyjny", Some(Otp)),
            ("Wpisz kod", Some(Otp)),
            ("Kod PIN", Some(Pin)),
            ("Numer karty", Some(Card)),
            ("Data ważności", Some(Card)),
            ("Kod rabatowy", None),
            ("Kod pocztowy", None),
        ],
        labelled,
    );
}

#[test]
fn russian_labels() {
    check(
        &[
            ("Пароль", Some(Password)),
            ("Повторите пароль", Some(Password)),
            ("Код из СМС", Some(Otp)),
            ("Код подтверждения", Some(Otp)),
            ("Одноразовый пароль", Some(Otp)),
            ("Введите код", Some(Otp)),
            ("ПИН-код", Some(Pin)),
            ("Номер карты", Some(Card)),
            ("Срок действия", Some(Card)),
            ("ММ/ГГ", Some(Card)),
            ("Промокод", None),
            ("Почтовый индекс", None),
            ("Имя", None),
        ],
        labelled,
    );
}

#[test]
fn ukrainian_labels() {
    check(
        &[
            ("Пароль", Some(Password)),
            ("Код підтвердження", Some(Otp)),
            ("Введіть код", Some(Otp)),
            ("ПІН-код", Some(Pin)),
            ("Номер картки", Some(Card)),
            ("Термін дії", Some(Card)),
            ("Промокод", None),
            ("Поштовий індекс", None),
        ],
        labelled,
    );
}

#[test]
fn turkish_labels() {
    check(
        &[
            ("Şifre", Some(Password)),
            ("ŞİFRE", Some(Password)),
            ("Parola", Some(Password)),
            ("Doğrulama kodu", Some(Otp)),
            ("Kodu girin", Some(Otp)),
            ("PIN kodu", Some(Pin)),
            ("Kart numarası", Some(Card)),
            ("Son kullanma tarihi", Some(Card)),
            ("İndirim kodu", None),
            ("Posta kodu", None),
        ],
        labelled,
    );
}

#[test]
fn japanese_labels() {
    check(
        &[
            ("パスワード", Some(Password)),
            ("認証コード", Some(Otp)),
            ("ワンタイムパスワード", Some(Otp)),
            ("コードを入力", Some(Otp)),
            ("暗証番号", Some(Pin)),
            ("カード番号", Some(Card)),
            ("有効期限（月/年）", Some(Card)),
            ("クーポンコード", None),
            ("郵便番号", None),
        ],
        labelled,
    );
}

#[test]
fn chinese_labels() {
    check(
        &[
            ("密码", Some(Password)),
            ("密碼", Some(Password)),
            ("短信验证码", Some(Otp)),
            ("动态密码", Some(Otp)),
            ("支付密码", Some(Pin)),
            ("银行卡号", Some(Card)),
            ("安全码", Some(Card)),
            ("优惠码", None),
            ("邮政编码", None),
        ],
        labelled,
    );
}

#[test]
fn korean_labels() {
    check(
        &[
            ("비밀번호", Some(Password)),
            ("인증번호", Some(Otp)),
            ("일회용 비밀번호", Some(Otp)),
            ("코드 입력", Some(Otp)),
            ("핀번호", Some(Pin)),
            ("카드번호", Some(Card)),
            ("유효기간", Some(Card)),
            ("쿠폰 코드", None),
            ("우편번호", None),
        ],
        labelled,
    );
}
