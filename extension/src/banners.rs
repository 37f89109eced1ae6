//! Closing the banners that stand between a person and the page: cookie and consent notices (GDPR
//! consent managers included), newsletter and "subscribe" pop-ups, "open in the app" banners. One frame
//! at a time (the worker fans out over the tab's frames, `tabs.rs`); found by structure (visible, fixed
//! or sticky or dialog-like, short) and by words in many languages, inside open shadow roots too.
//!
//! The button pressed is the one that gives away least: "reject all" and "only necessary" before
//! "no thanks", "close" and ✕, then saving the (default, off) choices or opening the settings layer of a
//! consent manager (its "reject" is pressed on the next pass), and "accept" only when a cookie notice has
//! no other way to close. Never anything that pays, sends, deletes, subscribes, installs or leaves the
//! page, and never anything in a form with fields to fill.
//!
//! The word lists and the choice are plain Rust ([`kind_of`], [`rank`], [`choose`]), tested natively.
//! Page text is data: it is matched against the lists, never interpreted otherwise.

use std::cell::RefCell;

use crate::act::query;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, HtmlElement};

/// What a banner is about, from its words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Cookies, consent to tracking, privacy choices.
    Cookie,
    /// A newsletter or "subscribe" pop-up.
    Newsletter,
    /// "Open in the app", "get the app".
    App,
}

/// What pressing a button does to a banner, best last: the derived order is the preference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Choice {
    /// Gives consent: only for a cookie notice that has no other way to close.
    Accept,
    /// Opens a consent manager's second layer, where "reject all" or "save" usually are.
    Settings,
    /// Saves the choices as they stand (off by default under the GDPR).
    Save,
    Close,
    /// "No thanks", "not now", "continue in the browser".
    Dismiss,
    /// "Reject all", "only necessary", "decline".
    Reject,
}

// Where the words come from: the buttons and texts of consent notices and pop-ups as they commonly read
// on news, shop and public-service sites in each language, written down by hand for this project. The
// order of the choices follows the GDPR's rule that refusing must be as easy as accepting (EDPB
// guidelines 05/2020 on consent; the French CNIL's 2020 cookie recommendation asks for a "refuse all"
// next to "accept all"), so refusing is always preferred when it is offered. All lower case; matched as
// whole words in scripts with spaces, as substrings in Chinese and Japanese.

/// Never pressed, whatever else the label says: paying, sending, deleting, subscribing, signing up or
/// in, installing, downloading, leaving for the app.
const NEVER: &[&str] = &[
    // en
    "pay",
    "buy",
    "purchase",
    "order",
    "checkout",
    "check out",
    "send",
    "submit",
    "delete",
    "remove",
    "subscribe",
    "sign up",
    "signup",
    "register",
    "donate",
    "install",
    "download",
    "open in app",
    "open app",
    "open the app",
    "get the app",
    "use the app",
    "log in",
    "login",
    "sign in",
    // de
    "bezahlen",
    "kaufen",
    "bestellen",
    "senden",
    "absenden",
    "löschen",
    "entfernen",
    "abonnieren",
    "anmelden",
    "registrieren",
    "installieren",
    "herunterladen",
    "app öffnen",
    "in der app öffnen",
    // fr
    "payer",
    "acheter",
    "commander",
    "envoyer",
    "supprimer",
    "s'abonner",
    "abonner",
    "je m'abonne",
    "s'inscrire",
    "installer",
    "télécharger",
    "ouvrir l'application",
    "se connecter",
    // es
    "pagar",
    "comprar",
    "enviar",
    "eliminar",
    "borrar",
    "suscribir",
    "suscribirse",
    "suscríbete",
    "registrarse",
    "instalar",
    "descargar",
    "abrir la app",
    "iniciar sesión",
    // it
    "paga",
    "acquista",
    "ordina",
    "invia",
    "elimina",
    "iscriviti",
    "abbonati",
    "installa",
    "scarica",
    "apri l'app",
    "accedi",
    // pt
    "comprar",
    "excluir",
    "apagar",
    "assinar",
    "inscrever",
    "inscreva-se",
    "baixar",
    "abrir o app",
    "entrar",
    // nl
    "betalen",
    "kopen",
    "verzenden",
    "versturen",
    "verwijderen",
    "abonneren",
    "inschrijven",
    "installeren",
    "downloaden",
    "inloggen",
    // pl
    "zapłać",
    "kup",
    "zamów",
    "wyślij",
    "usuń",
    "subskrybuj",
    "zapisz się",
    "zainstaluj",
    "pobierz",
    "zaloguj",
    // ru
    "оплатить",
    "купить",
    "заказать",
    "отправить",
    "удалить",
    "подписаться",
    "установить",
    "скачать",
    "войти",
    // uk
    "оплатити",
    "купити",
    "замовити",
    "надіслати",
    "видалити",
    "підписатися",
    "встановити",
    "завантажити",
    "увійти",
    // sv
    "betala",
    "köp",
    "beställ",
    "skicka",
    "radera",
    "ta bort",
    "prenumerera",
    "installera",
    "ladda ner",
    "logga in",
    // tr
    "öde",
    "satın al",
    "sipariş",
    "gönder",
    "sil",
    "abone ol",
    "yükle",
    "indir",
    "giriş yap",
    // ja
    "支払",
    "購入",
    "注文",
    "送信",
    "削除",
    "購読",
    "登録",
    "インストール",
    "ダウンロード",
    "ログイン",
    "アプリで開く",
    // zh
    "支付",
    "付款",
    "购买",
    "購買",
    "订购",
    "发送",
    "提交",
    "删除",
    "刪除",
    "订阅",
    "訂閱",
    "注册",
    "註冊",
    "安装",
    "下载",
    "下載",
    "登录",
    "打开app",
    "在应用中打开",
];

/// Refusing consent: the first choice wherever it is offered.
const REJECT: &[&str] = &[
    "reject all",
    "reject",
    "decline all",
    "decline",
    "refuse all",
    "refuse",
    "deny all",
    "deny",
    "disagree",
    "i do not agree",
    "i don't agree",
    "do not accept",
    "only necessary",
    "only essential",
    "necessary only",
    "essential only",
    "necessary cookies only",
    "essential cookies only",
    "use necessary cookies only",
    "only necessary cookies",
    "only essential cookies",
    "only required",
    "required only",
    "strictly necessary only",
    "continue without accepting",
    "continue without agreeing",
    "reject optional",
    "reject non-essential",
    // de
    "alle ablehnen",
    "ablehnen",
    "nur notwendige",
    "nur erforderliche",
    "nur essenzielle",
    "nur technisch notwendige",
    "weiter ohne einwilligung",
    "ohne einwilligung fortfahren",
    "verweigern",
    "nicht einverstanden",
    // fr
    "tout refuser",
    "refuser tout",
    "refuser",
    "je refuse",
    "continuer sans accepter",
    "nécessaires uniquement",
    "uniquement les cookies nécessaires",
    "seulement nécessaires",
    // es
    "rechazar todo",
    "rechazar todas",
    "rechazar",
    "solo necesarias",
    "sólo necesarias",
    "solo las necesarias",
    "solo esenciales",
    "denegar",
    "no acepto",
    "continuar sin aceptar",
    // it
    "rifiuta tutto",
    "rifiuta tutti",
    "rifiuta",
    "solo necessari",
    "solo i necessari",
    "continua senza accettare",
    "non accetto",
    "nega",
    // pt
    "rejeitar tudo",
    "rejeitar todos",
    "rejeitar",
    "recusar tudo",
    "recusar",
    "apenas necessários",
    "somente necessários",
    "apenas os necessários",
    "não aceito",
    // nl
    "alles weigeren",
    "weigeren",
    "alles afwijzen",
    "afwijzen",
    "alleen noodzakelijke",
    "alleen noodzakelijk",
    "alleen functionele",
    "niet akkoord",
    // pl
    "odrzuć wszystkie",
    "odrzuć wszystko",
    "odrzuć",
    "tylko niezbędne",
    "tylko konieczne",
    "odmów",
    "nie zgadzam się",
    // ru
    "отклонить все",
    "отклонить",
    "только необходимые",
    "отказаться",
    "не принимать",
    "не согласен",
    // uk
    "відхилити все",
    "відхилити",
    "лише необхідні",
    "тільки необхідні",
    "відмовитися",
    "не погоджуюсь",
    // sv
    "avvisa alla",
    "neka alla",
    "avvisa",
    "neka",
    "endast nödvändiga",
    "bara nödvändiga",
    "godkänn endast nödvändiga",
    "acceptera endast nödvändiga",
    // tr
    "tümünü reddet",
    "hepsini reddet",
    "reddet",
    "yalnızca gerekli",
    "sadece gerekli",
    "kabul etmiyorum",
    // ja
    "すべて拒否",
    "全て拒否",
    "拒否",
    "必要なもののみ",
    "必須のみ",
    "同意しない",
    // zh
    "全部拒绝",
    "全部拒絕",
    "拒绝",
    "拒絕",
    "仅必要",
    "僅必要",
    "仅限必要",
    "不同意",
    "不接受",
];

/// Going away without answering: newsletter and app pop-ups, "maybe later".
const DISMISS: &[&str] = &[
    "no thanks",
    "no, thanks",
    "no thank you",
    "no, thank you",
    "not now",
    "maybe later",
    "remind me later",
    "later",
    "not interested",
    "dismiss",
    "continue in browser",
    "continue in the browser",
    "stay on web",
    "stay on the website",
    "continue to site",
    "continue to website",
    "continue reading",
    // de
    "nein danke",
    "nein, danke",
    "nicht jetzt",
    "später",
    "vielleicht später",
    "im browser bleiben",
    "weiter im browser",
    // fr
    "non merci",
    "non, merci",
    "pas maintenant",
    "plus tard",
    "continuer sur le site",
    "continuer dans le navigateur",
    // es
    "no gracias",
    "no, gracias",
    "ahora no",
    "más tarde",
    "quizás más tarde",
    "continuar en el navegador",
    // it
    "no grazie",
    "no, grazie",
    "non ora",
    "non adesso",
    "più tardi",
    "continua nel browser",
    // pt
    "não obrigado",
    "não, obrigado",
    "não, obrigada",
    "agora não",
    "mais tarde",
    "continuar no navegador",
    // nl
    "nee bedankt",
    "nee, bedankt",
    "niet nu",
    "misschien later",
    "doorgaan in browser",
    // pl
    "nie dziękuję",
    "nie, dziękuję",
    "nie teraz",
    "później",
    "może później",
    "kontynuuj w przeglądarce",
    // ru
    "нет, спасибо",
    "нет спасибо",
    "не сейчас",
    "позже",
    "продолжить в браузере",
    // uk
    "ні, дякую",
    "ні дякую",
    "не зараз",
    "пізніше",
    "продовжити в браузері",
    // sv
    "nej tack",
    "nej, tack",
    "inte nu",
    "senare",
    "kanske senare",
    "fortsätt i webbläsaren",
    // tr
    "hayır teşekkürler",
    "hayır, teşekkürler",
    "şimdi değil",
    "daha sonra",
    "tarayıcıda devam et",
    // ja
    "今はしない",
    "後で",
    "あとで",
    "結構です",
    "ブラウザで続ける",
    // zh
    "不用了",
    "不了，谢谢",
    "以后再说",
    "暂不",
    "稍后",
    "继续使用浏览器",
];

/// Closing: a button that says so, or the ✕ glyphs that stand for it.
const CLOSE: &[&str] = &[
    "close",
    "close dialog",
    "close banner",
    "close this",
    "×",
    "✕",
    "✖",
    "╳",
    "x",
    "⨯",
    "🗙",
    "schließen",
    "schliessen",
    "fermer",
    "cerrar",
    "chiudi",
    "fechar",
    "sluiten",
    "zamknij",
    "закрыть",
    "закрити",
    "stäng",
    "kapat",
    "閉じる",
    "关闭",
    "關閉",
];

/// Saving a consent manager's choices as they stand (nothing is switched on by default).
const SAVE: &[&str] = &[
    "save",
    "save settings",
    "save preferences",
    "save my preferences",
    "save choices",
    "save my choices",
    "confirm my choices",
    "confirm choices",
    "confirm selection",
    "allow selection",
    "save and exit",
    "save & exit",
    "auswahl speichern",
    "einstellungen speichern",
    "speichern",
    "auswahl bestätigen",
    "auswahl erlauben",
    "enregistrer",
    "enregistrer mes choix",
    "confirmer mes choix",
    "valider mes choix",
    "guardar",
    "guardar configuración",
    "guardar preferencias",
    "confirmar mis opciones",
    "salva",
    "salva le preferenze",
    "salva impostazioni",
    "conferma le mie scelte",
    "salvar",
    "salvar preferências",
    "guardar preferências",
    "confirmar escolhas",
    "opslaan",
    "voorkeuren opslaan",
    "keuze opslaan",
    "zapisz",
    "zapisz ustawienia",
    "zapisz wybór",
    "сохранить",
    "сохранить настройки",
    "сохранить выбор",
    "зберегти",
    "зберегти налаштування",
    "spara",
    "spara inställningar",
    "spara val",
    "kaydet",
    "seçimleri kaydet",
    "ayarları kaydet",
    "保存",
    "設定を保存",
    "選択を保存",
    "保存设置",
    "儲存",
    "儲存設定",
];

/// Opening the consent manager's settings layer.
const SETTINGS: &[&str] = &[
    "manage",
    "manage options",
    "manage preferences",
    "manage settings",
    "manage cookies",
    "settings",
    "cookie settings",
    "cookies settings",
    "preferences",
    "cookie preferences",
    "customize",
    "customise",
    "more options",
    "options",
    "set preferences",
    "einstellungen",
    "cookie-einstellungen",
    "anpassen",
    "verwalten",
    "mehr optionen",
    "paramètres",
    "personnaliser",
    "gérer",
    "gérer mes choix",
    "plus d'options",
    "configurar",
    "configuración",
    "personalizar",
    "gestionar",
    "más opciones",
    "impostazioni",
    "personalizza",
    "gestisci",
    "più opzioni",
    "configurações",
    "definições",
    "gerir",
    "gerenciar",
    "instellingen",
    "aanpassen",
    "beheren",
    "ustawienia",
    "dostosuj",
    "zarządzaj",
    "настройки",
    "настроить",
    "управлять",
    "налаштування",
    "налаштувати",
    "керувати",
    "inställningar",
    "anpassa",
    "hantera",
    "ayarlar",
    "özelleştir",
    "yönet",
    "設定",
    "カスタマイズ",
    "管理",
    "设置",
    "自定义",
    "管理设置",
];

/// Giving consent: pressed only when a cookie notice has nothing else.
const ACCEPT: &[&str] = &[
    "accept",
    "accept all",
    "accept cookies",
    "accept all cookies",
    "allow",
    "allow all",
    "allow cookies",
    "agree",
    "i agree",
    "agree and close",
    "ok",
    "okay",
    "got it",
    "i understand",
    "understood",
    "continue",
    "yes",
    "i accept",
    "akzeptieren",
    "alle akzeptieren",
    "zustimmen",
    "alle zulassen",
    "zulassen",
    "einverstanden",
    "verstanden",
    "annehmen",
    "alle annehmen",
    "accepter",
    "tout accepter",
    "j'accepte",
    "d'accord",
    "compris",
    "aceptar",
    "aceptar todo",
    "aceptar todas",
    "acepto",
    "entendido",
    "de acuerdo",
    "accetta",
    "accetta tutto",
    "accetta tutti",
    "accetto",
    "ho capito",
    "va bene",
    "aceitar",
    "aceitar tudo",
    "aceitar todos",
    "aceito",
    "entendi",
    "concordo",
    "accepteren",
    "alles accepteren",
    "akkoord",
    "begrepen",
    "toestaan",
    "alles toestaan",
    "akceptuję",
    "zaakceptuj",
    "akceptuj",
    "akceptuj wszystkie",
    "zgadzam się",
    "rozumiem",
    "принять",
    "принять все",
    "согласен",
    "понятно",
    "хорошо",
    "прийняти",
    "прийняти все",
    "погоджуюсь",
    "зрозуміло",
    "добре",
    "acceptera",
    "acceptera alla",
    "godkänn",
    "godkänn alla",
    "jag förstår",
    "okej",
    "kabul et",
    "tümünü kabul et",
    "kabul ediyorum",
    "anladım",
    "tamam",
    "同意する",
    "すべて同意",
    "全て同意",
    "同意",
    "承諾",
    "了解",
    "許可",
    "接受",
    "全部接受",
    "我知道了",
    "好的",
    "允许",
    "知道了",
];

/// Words that make a text a cookie notice for sure.
const COOKIE_STRONG: &[&str] = &[
    "cookie",
    "cookies",
    "cookie policy",
    "gdpr",
    "dsgvo",
    "rgpd",
    "ciasteczka",
    "ciasteczek",
    "pliki cookie",
    "plików cookie",
    "kakor",
    "çerez",
    "çerezler",
    "çerezleri",
    "クッキー",
    "куки",
    "файлы cookie",
    "файлів cookie",
    "файли cookie",
    "tracking technologies",
    "traceurs",
];

/// Words of consent and privacy: a cookie notice unless the text is plainly a newsletter pop-up.
const CONSENT_WEAK: &[&str] = &[
    "consent",
    "your privacy",
    "we value your privacy",
    "personal data",
    "our partners",
    "einwilligung",
    "datenschutz",
    "zustimmung",
    "consentement",
    "vie privée",
    "données personnelles",
    "consentimiento",
    "privacidad",
    "consenso",
    "consentimento",
    "privacidade",
    "toestemming",
    "zgoda",
    "zgody",
    "prywatność",
    "согласие",
    "конфиденциальность",
    "згода",
    "конфіденційність",
    "samtycke",
    "integritet",
    "gizlilik",
    "プライバシー",
    "隐私",
    "隱私",
    "個人情報",
];

const NEWSLETTER: &[&str] = &[
    "newsletter",
    "subscribe",
    "sign up",
    "mailing list",
    "our emails",
    "join our list",
    "nieuwsbrief",
    "abonnieren",
    "abonnez-vous",
    "inscrivez-vous",
    "boletín",
    "suscríbete",
    "iscriviti",
    "inscreva-se",
    "assine",
    "zapisz się",
    "subskrybuj",
    "рассылка",
    "подпишитесь",
    "розсилка",
    "підпишіться",
    "nyhetsbrev",
    "prenumerera",
    "bülten",
    "abone ol",
    "ニュースレター",
    "メルマガ",
    "購読",
    "订阅",
    "訂閱",
    "新闻通讯",
];

const APP: &[&str] = &[
    "open in app",
    "open in the app",
    "get the app",
    "download the app",
    "use the app",
    "our app",
    "in der app öffnen",
    "app herunterladen",
    "unsere app",
    "ouvrir dans l'application",
    "télécharger l'application",
    "notre application",
    "abrir en la app",
    "descargar la app",
    "nuestra app",
    "apri nell'app",
    "scarica l'app",
    "abrir no app",
    "baixar o app",
    "open in de app",
    "download de app",
    "otwórz w aplikacji",
    "pobierz aplikację",
    "открыть в приложении",
    "скачать приложение",
    "відкрити в застосунку",
    "öppna i appen",
    "ladda ner appen",
    "uygulamada aç",
    "uygulamayı indir",
    "アプリで開く",
    "アプリをダウンロード",
    "在应用中打开",
    "下载应用",
    "打开app",
];

/// Longest text a button label may have: a paragraph is not a button.
const MAX_LABEL_CHARS: usize = 60;

/// Lower case, spacing collapsed, surrounding punctuation dropped ("No thanks!" → "no thanks").
pub fn normalize(text: &str) -> String {
    let joined = text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    let trimmed = joined.trim_matches(|c: char| {
        matches!(
            c,
            '.' | '!' | '?' | ':' | '"' | '«' | '»' | '“' | '”' | '>' | '<' | '›' | '‹' | '→'
        )
    });
    // The typographic apostrophe is written both ways on the web.
    trimmed.trim().replace('’', "'")
}

/// Chinese and Japanese are written without spaces: their phrases match anywhere.
fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30ff | 0x3400..=0x4dbf | 0x4e00..=0x9fff | 0xf900..=0xfaff | 0xff00..=0xffef)
}

/// Whether `phrase` occurs in `text` (both normalized) as whole words.
pub fn has_phrase(text: &str, phrase: &str) -> bool {
    if phrase.is_empty() {
        return false;
    }
    let loose = phrase.chars().any(is_cjk);
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() && !is_cjk(c));
    let mut from = 0;
    while let Some(at) = text[from..].find(phrase) {
        let start = from + at;
        let end = start + phrase.len();
        if loose || (!word(text[..start].chars().next_back()) && !word(text[end..].chars().next())) {
            return true;
        }
        from = start + phrase.chars().next().map_or(1, char::len_utf8);
    }
    false
}

fn any_phrase(text: &str, list: &[&str]) -> bool {
    list.iter().any(|p| has_phrase(text, p))
}

/// What a banner's text is about, if it is one of the banners this module closes.
pub fn kind_of(text: &str) -> Option<Kind> {
    let text = normalize(text);
    if any_phrase(&text, COOKIE_STRONG) {
        Some(Kind::Cookie)
    } else if any_phrase(&text, NEWSLETTER) {
        Some(Kind::Newsletter)
    } else if any_phrase(&text, APP) {
        Some(Kind::App)
    } else if any_phrase(&text, CONSENT_WEAK) {
        Some(Kind::Cookie)
    } else {
        None
    }
}

/// What pressing a button labelled `label` would do to a banner of this kind; `hint` is the button's
/// id, class, title and aria-label (an icon-only ✕ says "close" only there). `None`: never press it.
pub fn rank(label: &str, hint: &str, kind: Kind) -> Option<Choice> {
    let label = normalize(label);
    if label.chars().count() > MAX_LABEL_CHARS || any_phrase(&label, NEVER) {
        return None;
    }
    if any_phrase(&label, REJECT) {
        return Some(Choice::Reject);
    }
    if any_phrase(&label, DISMISS) {
        return Some(Choice::Dismiss);
    }
    let hint = normalize(&hint.replace(['-', '_'], " "));
    let glyph_only = !label.chars().any(char::is_alphanumeric);
    if any_phrase(&label, CLOSE)
        || ((label.is_empty() || glyph_only) && (any_phrase(&hint, CLOSE) || has_phrase(&hint, "dismiss")))
    {
        return Some(Choice::Close);
    }
    if kind != Kind::Cookie {
        return None;
    }
    if any_phrase(&label, SAVE) {
        Some(Choice::Save)
    } else if any_phrase(&label, SETTINGS) {
        Some(Choice::Settings)
    } else if any_phrase(&label, ACCEPT) {
        Some(Choice::Accept)
    } else {
        None
    }
}

/// The button to press among `(label, hint)` pairs in document order: the best choice, the first of
/// equals. "Accept" wins only when nothing else would close the notice.
pub fn choose(buttons: &[(String, String)], kind: Kind) -> Option<(usize, Choice)> {
    let mut best: Option<(usize, Choice)> = None;
    for (i, (label, hint)) in buttons.iter().enumerate() {
        if let Some(choice) = rank(label, hint, kind) {
            if best.is_none_or(|(_, b)| choice > b) {
                best = Some((i, choice));
            }
        }
    }
    best
}

// ---------------------------------------------------------------------------------------------------
// The page side: finding banners in this frame and pressing their buttons.

/// Elements that may be a banner or hold one, matched by the browser in one call per tree; the exact
/// rules (visible, fixed or dialog-like, words) are applied after.
const CONTAINERS: &str = "dialog[open], [role=dialog], [role=alertdialog], [aria-modal=true], \
    [id*=cookie i], [class*=cookie i], [id*=consent i], [class*=consent i], [id*=gdpr i], \
    [class*=gdpr i], [id*=cmp i], [class*=cmp i], [id*=privacy i], [class*=privacy i], \
    [id*=banner i], [class*=banner i], [id*=newsletter i], [class*=newsletter i], [id*=popup i], \
    [class*=popup i], [id*=modal i], [class*=modal i], [class*=overlay i], [id*=notice i], \
    [class*=notice i], [class*=subscribe i], [class*=smartbanner i], [class*=app-banner i], \
    body > *, body > * > *";

/// What may be a banner's button.
const BUTTONS: &str = "button, [role=button], a, input[type=button], input[type=submit], [onclick], \
    [aria-label], [class*=close i], [id*=close i], [class*=dismiss i]";

/// What is a button for certain, as opposed to the generic matches of [`BUTTONS`].
const REAL_BUTTONS: &str = "button, [role=button], a, input";

/// A form with something to fill in: a sign-up, payment or message form. Nothing in it is pressed.
const FILLABLE: &str = "input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=submit]):not([type=button]):not([type=reset]), textarea, select";

/// Parts of the page that are never a banner, nor hold one: its main content, header and navigation.
const SITE_PARTS: &str = "main, article, nav, header, [role=main], [role=navigation], [role=banner], \
    [role=search]";
/// A banner offers a few choices; a container with many more buttons is a part of the site.
const MAX_BANNER_BUTTONS: usize = 12;

/// A banner's text is short; longer containers are the page itself.
const MAX_BANNER_CHARS: usize = 6_000;
const MAX_SHADOW_DEPTH: usize = 16;
/// How far up a container may inherit being fixed from its ancestors.
const MAX_POSITION_DEPTH: usize = 6;

thread_local! {
    /// Buttons already pressed and banners already closed in this frame (weakly held): a banner that
    /// fades out slowly is not pressed twice, and a settings button is not pressed again.
    static PRESSED: RefCell<Option<js_sys::WeakSet>> = const { RefCell::new(None) };
    /// Consent banners whose settings layer was opened: their second layer often no longer says
    /// "cookies" ("choose which purposes you allow"), yet it is the same consent notice.
    static LAYERED: RefCell<Option<js_sys::WeakSet>> = const { RefCell::new(None) };
}

fn pressed() -> js_sys::WeakSet {
    PRESSED.with_borrow_mut(|p| p.get_or_insert_with(js_sys::WeakSet::new).clone())
}

fn layered() -> js_sys::WeakSet {
    LAYERED.with_borrow_mut(|p| p.get_or_insert_with(js_sys::WeakSet::new).clone())
}

/// One banner of this frame and the button that would close it, as [`find`] chose it.
#[derive(Clone)]
pub struct Pick {
    pub button: Element,
    container: Element,
    choice: Choice,
    kind: Kind,
    /// The button's label, for saying what closed the banner.
    label: String,
}

impl Pick {
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            Kind::Cookie => "cookie",
            Kind::Newsletter => "newsletter",
            Kind::App => "app",
        }
    }

    pub fn choice_name(&self) -> &'static str {
        match self.choice {
            Choice::Accept => "accept",
            Choice::Settings => "settings",
            Choice::Save => "save",
            Choice::Close => "close",
            Choice::Dismiss => "dismiss",
            Choice::Reject => "reject",
        }
    }
}

/// This frame's banners, each with the button that gives away least ([`choose`]). Nothing is pressed:
/// the host's gate judges each button's effect first, then [`press`] presses those it allows.
pub fn find() -> Vec<Pick> {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return Vec::new();
    };
    let done = pressed();
    let layers = layered();
    let mut picks: Vec<Pick> = Vec::new();
    for (container, dialog_like) in containers(&document) {
        if done.has(&container)
            || picks.iter().any(|p| {
                crate::act::composed_contains(&p.container, &container)
                    || crate::act::composed_contains(&container, &p.container)
            })
        {
            continue;
        }
        if !shown(&container) || !(dialog_like || positioned(&container)) {
            continue;
        }
        // The page itself or its header and navigation (sticky headers say "subscribe" too), not a banner.
        let landmark = container.matches(SITE_PARTS).unwrap_or(false)
            || container.query_selector(SITE_PARTS).ok().flatten().is_some();
        if landmark {
            continue;
        }
        let text = container
            .dyn_ref::<HtmlElement>()
            .map(HtmlElement::inner_text)
            .unwrap_or_default();
        if text.trim().is_empty() || text.chars().count() > MAX_BANNER_CHARS {
            continue;
        }
        let Some(kind) = kind_of(&text).or_else(|| layers.has(&container).then_some(Kind::Cookie)) else {
            continue;
        };
        let buttons: Vec<Element> = buttons_in(&container)
            .into_iter()
            .filter(|b| !done.has(b))
            .collect();
        if buttons.len() > MAX_BANNER_BUTTONS {
            continue;
        }
        let described: Vec<(String, String)> = buttons.iter().map(describe).collect();
        let Some((i, choice)) = choose(&described, kind) else {
            continue;
        };
        let (Some(button), Some((label, _))) = (buttons.get(i), described.get(i)) else {
            continue;
        };
        picks.push(Pick {
            button: button.clone(),
            container: container.clone(),
            choice,
            kind,
            label: label.trim().to_string(),
        });
    }
    picks
}

/// Presses a button [`find`] chose (and the gate allowed). `None` when it was not pressed (gone, or
/// already pressed); otherwise what closed, if a banner did (a settings layer opens in place instead,
/// to be looked at again).
pub fn press(pick: &Pick) -> Option<Vec<String>> {
    let done = pressed();
    if done.has(&pick.button) || !pick.button.is_connected() {
        return None;
    }
    crate::act::click(&pick.button).ok()?;
    done.add(&pick.button);
    if pick.choice == Choice::Settings {
        layered().add(&pick.container);
        return Some(Vec::new());
    }
    done.add(&pick.container);
    let label = if pick.label.is_empty() || !pick.label.chars().any(char::is_alphanumeric) {
        "Close".to_string()
    } else {
        pick.label.clone()
    };
    Some(vec![label])
}

/// Candidate containers in document order, open shadow roots included, each with whether it declares
/// itself a dialog. In a child frame the whole document may be the banner (consent managers put their
/// notice in a frame of its own): its body comes last, so a banner inside the frame is handled as
/// itself first and the body is then passed over as holding it.
fn containers(document: &web_sys::Document) -> Vec<(Element, bool)> {
    let mut out = Vec::new();
    collect(&document.clone().into(), &mut out, 0);
    let in_child_frame = web_sys::window()
        .and_then(|w| {
            let parent = w.parent().ok().flatten()?;
            Some(!js_sys::Object::is(&parent, &w))
        })
        .unwrap_or(false);
    if in_child_frame {
        if let Some(body) = document.body() {
            out.push((body.into(), true));
        }
    }
    out
}

fn collect(root: &JsValue, out: &mut Vec<(Element, bool)>, depth: usize) {
    for element in query(root, CONTAINERS) {
        let dialog = element
            .matches("dialog[open], [role=dialog], [role=alertdialog], [aria-modal=true]")
            .unwrap_or(false);
        out.push((element, dialog));
    }
    if let Some(shadow) = root.dyn_ref::<web_sys::ShadowRoot>() {
        // A shadow root's own top-level elements stand where `body > *` does in a document.
        let children = shadow.children();
        for i in 0..children.length() {
            if let Some(child) = children.item(i) {
                out.push((child, false));
            }
        }
    }
    if depth >= MAX_SHADOW_DEPTH {
        return;
    }
    for host in query(root, "*") {
        if let Some(shadow) = host.shadow_root() {
            collect(&shadow.into(), out, depth + 1);
        }
    }
}

/// Buttons of a banner, its open shadow roots included; the outermost of nested matches only. Links
/// that lead to another page (privacy policies, the app store) and anything inside a form with fields
/// to fill are left out.
fn buttons_in(container: &Element) -> Vec<Element> {
    let mut all = Vec::new();
    let mut roots: Vec<JsValue> = vec![container.clone().into()];
    if let Some(shadow) = container.shadow_root() {
        roots.push(shadow.into());
    }
    let mut depth = 0;
    while let Some(root) = roots.pop() {
        all.extend(query(&root, BUTTONS));
        if depth < MAX_SHADOW_DEPTH {
            for host in query(&root, "*") {
                if let Some(shadow) = host.shadow_root() {
                    roots.push(shadow.into());
                }
            }
        }
        depth += 1;
    }
    let real = |e: &Element| e.matches(REAL_BUTTONS).unwrap_or(false);
    let mut out: Vec<Element> = Vec::new();
    for button in &all {
        // A generic match (a labelled or clickable `div`) around real buttons is a wrapper, not a button.
        if !real(button)
            && all
                .iter()
                .any(|o| o != button && real(o) && crate::act::composed_contains(button, o))
        {
            continue;
        }
        // The outermost button only: a labelled icon inside a button is a part of it.
        if out.iter().any(|o| crate::act::composed_contains(o, button)) {
            continue;
        }
        if !shown(button) || leaves_page(button) || in_fillable_form(button) {
            continue;
        }
        if button.matches(":disabled").unwrap_or(false) {
            continue;
        }
        out.push(button.clone());
    }
    out
}

/// The label a person sees or hears, and the hints an icon-only button carries.
fn describe(button: &Element) -> (String, String) {
    let attribute = |name: &str| button.get_attribute(name).unwrap_or_default();
    let text = button
        .dyn_ref::<HtmlElement>()
        .map(HtmlElement::inner_text)
        .unwrap_or_default();
    let value = button
        .dyn_ref::<web_sys::HtmlInputElement>()
        .map(|i| i.value())
        .unwrap_or_default();
    let label = [attribute("aria-label"), text, value, attribute("title")]
        .into_iter()
        .map(|s| s.trim().to_string())
        .find(|s| !s.is_empty())
        .unwrap_or_default();
    let hint = [
        attribute("id"),
        attribute("class"),
        attribute("aria-label"),
        attribute("title"),
    ]
    .join(" ");
    (label, hint)
}

fn leaves_page(button: &Element) -> bool {
    if button.local_name() != "a" {
        return false;
    }
    let href = button.get_attribute("href").unwrap_or_default();
    let href = href.trim().to_lowercase();
    !(href.is_empty() || href.starts_with('#') || href.starts_with("javascript:"))
        || button.has_attribute("download")
}

fn in_fillable_form(button: &Element) -> bool {
    button
        .closest("form")
        .ok()
        .flatten()
        .is_some_and(|f| f.query_selector(FILLABLE).ok().flatten().is_some())
}

/// On screen and not hidden by style (its own or an ancestor's opacity, visibility or display).
fn shown(element: &Element) -> bool {
    let rect = element.get_bounding_client_rect();
    if rect.width() < 1.0 || rect.height() < 1.0 {
        return false;
    }
    let (vw, vh) = crate::overlay::viewport();
    if rect.bottom() <= 0.0 || rect.right() <= 0.0 || rect.top() >= vh || rect.left() >= vw {
        return false;
    }
    let check = js_sys::Reflect::get(element, &"checkVisibility".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    let Some(check) = check else { return true };
    let options = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&options, &"opacityProperty".into(), &JsValue::TRUE);
    let _ = js_sys::Reflect::set(&options, &"visibilityProperty".into(), &JsValue::TRUE);
    check
        .call1(element, &options)
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(true)
}

/// Whether the element, or one of its near ancestors, stays in place on screen (fixed or sticky), as
/// banners do.
fn positioned(element: &Element) -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let mut current = Some(element.clone());
    for _ in 0..MAX_POSITION_DEPTH {
        let Some(e) = current else { break };
        if matches!(e.local_name().as_str(), "body" | "html") {
            break;
        }
        let position = window
            .get_computed_style(&e)
            .ok()
            .flatten()
            .and_then(|s| s.get_property_value("position").ok())
            .unwrap_or_default();
        if position == "fixed" || position == "sticky" {
            return true;
        }
        current = match e.parent_node() {
            Some(p) => match p.dyn_ref::<web_sys::ShadowRoot>() {
                Some(s) => Some(s.host()),
                None => p.dyn_into::<Element>().ok(),
            },
            None => None,
        };
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pick(buttons: &[&str], kind: Kind) -> Option<(String, Choice)> {
        let described: Vec<(String, String)> =
            buttons.iter().map(|b| (b.to_string(), String::new())).collect();
        choose(&described, kind).map(|(i, c)| (buttons[i].to_string(), c))
    }

    #[test]
    fn rejecting_wins_over_accepting_in_every_language() {
        let cases: &[(&[&str], &str)] = &[
            (&["Accept all", "Reject all", "Cookie settings"], "Reject all"),
            (
                &["Alle akzeptieren", "Einstellungen", "Alle ablehnen"],
                "Alle ablehnen",
            ),
            (&["Tout accepter", "Tout refuser"], "Tout refuser"),
            (&["Aceptar todo", "Rechazar todo"], "Rechazar todo"),
            (&["Accetta tutto", "Rifiuta tutto"], "Rifiuta tutto"),
            (&["Aceitar tudo", "Rejeitar tudo"], "Rejeitar tudo"),
            (
                &["Alles accepteren", "Alleen noodzakelijke cookies"],
                "Alleen noodzakelijke cookies",
            ),
            (&["Akceptuj wszystkie", "Odrzuć wszystkie"], "Odrzuć wszystkie"),
            (&["Принять все", "Отклонить все"], "Отклонить все"),
            (&["Прийняти все", "Відхилити все"], "Відхилити все"),
            (&["Acceptera alla", "Endast nödvändiga"], "Endast nödvändiga"),
            (&["Tümünü kabul et", "Tümünü reddet"], "Tümünü reddet"),
            (&["すべて同意", "すべて拒否"], "すべて拒否"),
            (&["全部接受", "全部拒绝"], "全部拒绝"),
            (&["同意", "同意しない"], "同意しない"),
        ];
        for (buttons, expected) in cases {
            let (chosen, choice) = pick(buttons, Kind::Cookie).expect("a choice");
            assert_eq!(&chosen, expected, "{buttons:?}");
            assert_eq!(choice, Choice::Reject, "{buttons:?}");
        }
    }

    #[test]
    fn the_order_is_reject_dismiss_close_save_settings_accept() {
        assert_eq!(
            pick(&["OK", "Manage options"], Kind::Cookie).map(|p| p.1),
            Some(Choice::Settings)
        );
        assert_eq!(
            pick(&["Accept all", "Save my choices", "Manage"], Kind::Cookie).map(|p| p.1),
            Some(Choice::Save)
        );
        assert_eq!(
            pick(&["Accept", "×"], Kind::Cookie).map(|p| p.1),
            Some(Choice::Close)
        );
        assert_eq!(
            pick(&["Close", "No thanks"], Kind::Newsletter).map(|p| p.0),
            Some("No thanks".into())
        );
        assert!(
            Choice::Reject > Choice::Dismiss
                && Choice::Close > Choice::Save
                && Choice::Settings > Choice::Accept
        );
    }

    #[test]
    fn accepting_only_when_a_cookie_notice_has_nothing_else() {
        assert_eq!(
            pick(&["Got it!"], Kind::Cookie),
            Some(("Got it!".into(), Choice::Accept))
        );
        assert_eq!(
            pick(&["Verstanden"], Kind::Cookie).map(|p| p.1),
            Some(Choice::Accept)
        );
        // A newsletter or app banner is never "accepted".
        assert_eq!(pick(&["OK", "Continue"], Kind::Newsletter), None);
        assert_eq!(pick(&["Allow"], Kind::App), None);
    }

    #[test]
    fn never_presses_what_pays_sends_deletes_subscribes_or_installs() {
        for label in [
            "Subscribe",
            "Sign up",
            "Pay now",
            "Send",
            "Delete",
            "Open in app",
            "Jetzt abonnieren",
            "S'abonner",
            "Suscribirse",
            "Zapisz się",
            "Подписаться",
            "Підписатися",
            "Prenumerera",
            "Abone ol",
            "購読する",
            "立即订阅",
            "Install",
        ] {
            assert_eq!(rank(label, "", Kind::Cookie), None, "{label}");
            assert_eq!(rank(label, "", Kind::Newsletter), None, "{label}");
        }
        assert_eq!(
            pick(&["Subscribe", "No thanks"], Kind::Newsletter).map(|p| p.0),
            Some("No thanks".into())
        );
        assert_eq!(
            pick(&["Open in app", "Not now"], Kind::App).map(|p| p.0),
            Some("Not now".into())
        );
    }

    #[test]
    fn an_icon_button_is_a_close_button_by_its_hints() {
        assert_eq!(rank("", "modal-close-btn", Kind::Newsletter), Some(Choice::Close));
        assert_eq!(rank("×", "", Kind::App), Some(Choice::Close));
        assert_eq!(rank("", "icon", Kind::Newsletter), None);
        // A labelled button is judged by its label, not its class.
        assert_eq!(rank("Read more", "close-reading", Kind::Newsletter), None);
    }

    #[test]
    fn words_match_whole_words_except_in_chinese_and_japanese() {
        assert!(has_phrase("reject all", "reject"));
        assert!(!has_phrase("book now", "ok"));
        assert!(!has_phrase("subscribed", "subscribe"));
        assert!(has_phrase("我们使用cookie", "cookie"));
        assert!(has_phrase("すべて拒否する", "拒否"));
        assert_eq!(normalize("  No   Thanks! "), "no thanks");
        assert_eq!(normalize("I don’t agree"), "i don't agree");
        assert_eq!(rank("Disagree", "", Kind::Cookie), Some(Choice::Reject));
    }

    #[test]
    fn every_listed_word_can_match() {
        // A word written with capitals or extra spaces would never match a normalized label.
        for list in [
            NEVER,
            REJECT,
            DISMISS,
            CLOSE,
            SAVE,
            SETTINGS,
            ACCEPT,
            COOKIE_STRONG,
            CONSENT_WEAK,
            NEWSLETTER,
            APP,
        ] {
            for word in list {
                assert_eq!(normalize(word), *word, "{word}");
                assert!(has_phrase(word, word), "{word}");
            }
        }
    }

    #[test]
    fn banners_are_known_by_their_words() {
        assert_eq!(
            kind_of("We use cookies to improve your experience."),
            Some(Kind::Cookie)
        );
        assert_eq!(
            kind_of("Wir verwenden Cookies und ähnliche Technologien."),
            Some(Kind::Cookie)
        );
        assert_eq!(kind_of("Nous respectons votre vie privée"), Some(Kind::Cookie));
        assert_eq!(kind_of("Ta strona używa plików cookie"), Some(Kind::Cookie));
        assert_eq!(kind_of("Этот сайт использует куки"), Some(Kind::Cookie));
        assert_eq!(kind_of("Bu site çerezler kullanır"), Some(Kind::Cookie));
        assert_eq!(kind_of("当サイトではクッキーを使用します"), Some(Kind::Cookie));
        assert_eq!(kind_of("我们重视您的隐私"), Some(Kind::Cookie));
        assert_eq!(
            kind_of("Subscribe to our newsletter. By signing up you consent to our privacy policy."),
            Some(Kind::Newsletter)
        );
        assert_eq!(
            kind_of("Abonnieren Sie unseren Newsletter"),
            Some(Kind::Newsletter)
        );
        assert_eq!(kind_of("Get the app for a better experience"), Some(Kind::App));
        assert_eq!(kind_of("Your order is ready. Pay €84.97"), None);
        assert_eq!(kind_of("Delete your account?"), None);
    }
}
