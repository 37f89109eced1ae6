//! The policy classifier's word lists, grouped by class and then by language.
//!
//! Data only: no logic and no I/O. Write words the way people write them (case, accents, hyphens and
//! full-width forms do not matter): the classifier normalises both sides the same way before comparing.
//! Languages: en de fr es it pt nl pl ru uk tr ja zh ko, with common variants; some translations have
//! not been checked against real sites yet. Two kinds of words are not here because the extension
//! needs them too: those of controls never pressed without a yes (paying, deleting, sending:
//! `waymark_protocol::words`, re-exported below, which the banner closer also refuses to press), and
//! those of secret fields (passwords, codes, PINs, cards), which live with the shared predicate,
//! `waymark_protocol::secret`.

pub use waymark_protocol::words::{WordList, DELETE, PAY, SEND};

/// Saying yes: harmless alone, risky when it confirms something risky (a dialog, a checkout page).
pub const CONFIRM: WordList = &[
    (
        "en",
        &[
            "confirm", "yes", "ok", "okay", "continue", "agree", "i agree", "accept", "proceed",
        ],
    ),
    (
        "de",
        &[
            "bestätigen",
            "ja",
            "weiter",
            "zustimmen",
            "akzeptieren",
            "fortfahren",
            "einverstanden",
        ],
    ),
    (
        "fr",
        &[
            "confirmer",
            "oui",
            "continuer",
            "accepter",
            "j'accepte",
            "valider",
        ],
    ),
    ("es", &["confirmar", "sí", "continuar", "aceptar", "acepto"]),
    (
        "it",
        &["conferma", "sì", "continua", "accetta", "accetto", "procedi"],
    ),
    (
        "pt",
        &["confirmar", "sim", "continuar", "aceitar", "aceito", "prosseguir"],
    ),
    (
        "nl",
        &["bevestigen", "ja", "doorgaan", "verder", "akkoord", "accepteren"],
    ),
    (
        "pl",
        &[
            "potwierdź",
            "tak",
            "dalej",
            "kontynuuj",
            "akceptuję",
            "zgadzam się",
        ],
    ),
    (
        "ru",
        &["подтвердить", "да", "продолжить", "далее", "согласен", "принять"],
    ),
    (
        "uk",
        &[
            "підтвердити",
            "так",
            "продовжити",
            "далі",
            "погоджуюсь",
            "прийняти",
        ],
    ),
    (
        "tr",
        &[
            "onayla",
            "evet",
            "tamam",
            "devam",
            "devam et",
            "kabul et",
            "kabul ediyorum",
        ],
    ),
    ("ja", &["確認", "はい", "同意する", "続行", "続ける"]),
    ("zh", &["确认", "確認", "确定", "確定", "是", "同意", "继续"]),
    ("ko", &["확인", "예", "네", "동의", "계속"]),
];

/// Labels that are the whole command only when they are the whole label: "Drop" and "Empty" delete
/// (a database tool's table actions, a mail client's trash), but as one word among others they are a
/// noun or an adjective ("Drop files here", "Show empty folders"). Other languages say these with
/// verbs of their own, which are in [`DELETE`].
pub const DELETE_ALONE: WordList = &[("en", &["drop", "empty", "purge all", "drop all", "empty all"])];

/// Saying no or going back: the way out of a page's own question, never its risky answer. A button
/// that says only this is not asked about for the question around it (unless the question itself uses
/// the same word: "Cancel your order?" makes its "Cancel" the answer).
pub const DISMISS: WordList = &[
    (
        "en",
        &[
            "cancel",
            "no",
            "close",
            "keep",
            "back",
            "go back",
            "not now",
            "never mind",
            "dismiss",
            "no thanks",
        ],
    ),
    (
        "de",
        &[
            "abbrechen",
            "nein",
            "schließen",
            "zurück",
            "behalten",
            "nicht jetzt",
        ],
    ),
    (
        "fr",
        &[
            "annuler",
            "non",
            "fermer",
            "retour",
            "conserver",
            "pas maintenant",
        ],
    ),
    (
        "es",
        &["cancelar", "no", "cerrar", "volver", "conservar", "ahora no"],
    ),
    (
        "it",
        &["annulla", "no", "chiudi", "indietro", "mantieni", "non ora"],
    ),
    (
        "pt",
        &["cancelar", "não", "fechar", "voltar", "manter", "agora não"],
    ),
    (
        "nl",
        &["annuleren", "nee", "sluiten", "terug", "behouden", "niet nu"],
    ),
    (
        "pl",
        &["anuluj", "nie", "zamknij", "wróć", "zachowaj", "nie teraz"],
    ),
    (
        "ru",
        &[
            "отмена",
            "отменить",
            "нет",
            "закрыть",
            "назад",
            "оставить",
            "не сейчас",
        ],
    ),
    (
        "uk",
        &["скасувати", "ні", "закрити", "назад", "залишити", "не зараз"],
    ),
    (
        "tr",
        &["iptal", "vazgeç", "hayır", "kapat", "geri", "şimdi değil"],
    ),
    ("ja", &["キャンセル", "いいえ", "閉じる", "戻る"]),
    ("zh", &["取消", "否", "关闭", "關閉", "返回"]),
    ("ko", &["취소", "아니요", "닫기", "돌아가기"]),
];

/// Generic "move on" labels. Like [`CONFIRM`] they are risky only with a risky signal around them
/// (a checkout address, a delete form); unlike it, being in a dialog alone does not make them risky.
pub const NEXT: WordList = &[
    ("en", &["next", "next step", "go", "done", "finish", "complete"]),
    ("de", &["nächste", "nächster schritt", "fertig", "abschließen"]),
    ("fr", &["suivant", "étape suivante", "terminer"]),
    ("es", &["siguiente", "terminar"]),
    ("it", &["avanti", "successivo", "termina"]),
    ("pt", &["próximo", "seguinte", "avançar", "concluir"]),
    ("nl", &["volgende", "klaar"]),
    ("pl", &["następny", "następna", "zakończ"]),
    ("ru", &["следующий", "следующая", "готово"]),
    ("uk", &["наступний", "наступна", "готово"]),
    ("tr", &["ileri", "sonraki", "bitir"]),
    ("ja", &["次へ", "次のページ", "進む", "完了"]),
    ("zh", &["下一步", "下一页", "完成"]),
    ("ko", &["다음", "완료"]),
];

/// Adding to a cart: reversible and not a purchase, so it stays low risk (unless the label also says
/// "buy now", which [`PAY`] catches first).
pub const ADD_TO_CART: WordList = &[
    (
        "en",
        &["add to cart", "add to basket", "add to bag", "add to trolley"],
    ),
    (
        "de",
        &[
            "in den warenkorb",
            "zum warenkorb hinzufügen",
            "in den einkaufswagen",
        ],
    ),
    ("fr", &["ajouter au panier"]),
    (
        "es",
        &["añadir al carrito", "agregar al carrito", "añadir a la cesta"],
    ),
    ("it", &["aggiungi al carrello"]),
    ("pt", &["adicionar ao carrinho", "adicionar ao cesto"]),
    (
        "nl",
        &["in winkelwagen", "toevoegen aan winkelwagen", "in winkelmand"],
    ),
    ("pl", &["dodaj do koszyka"]),
    ("ru", &["в корзину", "добавить в корзину"]),
    ("uk", &["в кошик", "до кошика", "додати в кошик"]),
    ("tr", &["sepete ekle"]),
    ("ja", &["カートに入れる", "カートに追加"]),
    ("zh", &["加入购物车", "加入購物車"]),
    ("ko", &["장바구니 담기", "장바구니에 담기"]),
];

/// Saving or updating something already there: harmless in a private draft or a settings page, but
/// publishing on a page that others see (a live post, a public wiki page). Judged with [`PUBLISHED`]
/// and [`PRIVATE`] in the words around the control.
pub const SAVE: WordList = &[
    (
        "en",
        &[
            "save",
            "save changes",
            "save page",
            "save all",
            "update",
            "update post",
            "update page",
            "apply changes",
            "save and close",
        ],
    ),
    (
        "de",
        &[
            "speichern",
            "änderungen speichern",
            "seite speichern",
            "aktualisieren",
            "übernehmen",
        ],
    ),
    (
        "fr",
        &[
            "enregistrer",
            "enregistrer les modifications",
            "sauvegarder",
            "mettre à jour",
            "appliquer",
        ],
    ),
    (
        "es",
        &[
            "guardar",
            "guardar cambios",
            "guardar la página",
            "actualizar",
            "aplicar cambios",
        ],
    ),
    (
        "it",
        &[
            "salva",
            "salva modifiche",
            "salva le modifiche",
            "salva la pagina",
            "aggiorna",
        ],
    ),
    (
        "pt",
        &[
            "salvar",
            "salvar alterações",
            "guardar",
            "guardar alterações",
            "atualizar",
            "actualizar",
        ],
    ),
    (
        "nl",
        &["opslaan", "wijzigingen opslaan", "pagina opslaan", "bijwerken"],
    ),
    (
        "pl",
        &[
            "zapisz",
            "zapisz zmiany",
            "zapisz stronę",
            "aktualizuj",
            "zaktualizuj",
        ],
    ),
    (
        "ru",
        &[
            "сохранить",
            "сохранить изменения",
            "записать страницу",
            "записать изменения",
            "обновить",
        ],
    ),
    (
        "uk",
        &["зберегти", "зберегти зміни", "записати сторінку", "оновити"],
    ),
    (
        "tr",
        &["kaydet", "değişiklikleri kaydet", "sayfayı kaydet", "güncelle"],
    ),
    ("ja", &["保存", "変更を保存", "ページを保存", "更新"]),
    ("zh", &["保存", "保存更改", "儲存", "更新"]),
    ("ko", &["저장", "변경사항 저장", "업데이트"]),
];

/// What a page says near a save button when saving publishes: the thing is live or public, or what is
/// saved becomes a contribution under a licence (wikis). Matched in the visible words around it.
pub const PUBLISHED: WordList = &[
    (
        "en",
        &[
            "published",
            "public",
            "publicly",
            "visible to everyone",
            "visible to anyone",
            "anyone can see",
            "everyone can see",
            "switch to draft",
            "unpublish",
            "view post",
            "view page",
            "contributions",
            "released under",
            "edited, altered, or removed by other contributors",
        ],
    ),
    (
        "de",
        &[
            "veröffentlicht",
            "öffentlich",
            "für alle sichtbar",
            "zum entwurf wechseln",
            "beitrag ansehen",
            "beiträge",
            "lizenz",
        ],
    ),
    (
        "fr",
        &[
            "publié",
            "publiée",
            "public",
            "publique",
            "publiquement",
            "visible par tous",
            "passer en brouillon",
            "voir l'article",
            "contributions",
            "licence",
        ],
    ),
    (
        "es",
        &[
            "publicado",
            "publicada",
            "público",
            "pública",
            "públicamente",
            "visible para todos",
            "cambiar a borrador",
            "ver entrada",
            "contribuciones",
            "licencia",
        ],
    ),
    (
        "it",
        &[
            "pubblicato",
            "pubblicata",
            "pubblico",
            "pubblica",
            "pubblicamente",
            "visibile a tutti",
            "passa a bozza",
            "visualizza articolo",
            "contributi",
            "licenza",
        ],
    ),
    (
        "pt",
        &[
            "publicado",
            "publicada",
            "público",
            "pública",
            "publicamente",
            "visível para todos",
            "mudar para rascunho",
            "ver post",
            "contribuições",
            "licença",
        ],
    ),
    (
        "nl",
        &[
            "gepubliceerd",
            "openbaar",
            "zichtbaar voor iedereen",
            "naar concept",
            "bericht bekijken",
            "bijdragen",
            "licentie",
        ],
    ),
    (
        "pl",
        &[
            "opublikowany",
            "opublikowana",
            "opublikowano",
            "publiczny",
            "publiczna",
            "publicznie",
            "widoczne dla wszystkich",
            "przełącz na szkic",
            "zobacz wpis",
            "wkład",
            "licencji",
        ],
    ),
    (
        "ru",
        &[
            "опубликовано",
            "опубликован",
            "опубликована",
            "публичный",
            "публичная",
            "публично",
            "видно всем",
            "виден всем",
            "перевести в черновик",
            "просмотреть запись",
            "вклад",
            "лицензией",
            "лицензии",
        ],
    ),
    (
        "uk",
        &[
            "опубліковано",
            "опублікований",
            "публічний",
            "публічно",
            "видно всім",
            "перевести в чернетку",
            "переглянути запис",
            "внесок",
            "ліцензією",
            "ліцензії",
        ],
    ),
    (
        "tr",
        &[
            "yayınlandı",
            "yayında",
            "herkese açık",
            "herkes görebilir",
            "taslağa geç",
            "yazıyı görüntüle",
            "katkılar",
            "lisans",
        ],
    ),
    (
        "ja",
        &[
            "公開済み",
            "公開中",
            "全員に公開",
            "下書きへ切り替え",
            "投稿を表示",
            "ライセンス",
        ],
    ),
    (
        "zh",
        &[
            "已发布",
            "已發佈",
            "公开",
            "公開",
            "所有人可见",
            "切换到草稿",
            "查看文章",
            "许可协议",
        ],
    ),
    (
        "ko",
        &[
            "게시됨",
            "공개",
            "모두에게 공개",
            "임시글로 전환",
            "글 보기",
            "라이선스",
        ],
    ),
];

/// What says a save stays private: a private item, something only the user sees. Any of these in a
/// save button's own label, or in the words around it, outweighs [`PUBLISHED`].
pub const PRIVATE: WordList = &[
    ("en", &["private", "only me", "only you", "only visible to you"]),
    ("de", &["privat", "nur ich", "nur für dich sichtbar"]),
    ("fr", &["privé", "privée", "moi uniquement"]),
    ("es", &["privado", "privada", "solo yo"]),
    ("it", &["privato", "privata", "solo io"]),
    ("pt", &["privado", "privada", "somente eu", "só eu"]),
    ("nl", &["privé", "alleen ik"]),
    ("pl", &["prywatny", "prywatna", "tylko ja"]),
    ("ru", &["личный", "личная", "приватный", "только я"]),
    ("uk", &["приватний", "особистий", "тільки я"]),
    ("tr", &["gizli", "özel", "yalnızca ben"]),
    ("ja", &["非公開", "自分のみ"]),
    ("zh", &["私密", "仅自己可见"]),
    ("ko", &["비공개", "나만 보기"]),
];

/// A draft: a save button that says so keeps what it saves unpublished. Only the button's own words
/// count (an editor that offers "Switch to draft" is showing a published post).
pub const DRAFT: WordList = &[
    ("en", &["draft", "save draft", "save as draft"]),
    ("de", &["entwurf", "als entwurf speichern"]),
    ("fr", &["brouillon", "enregistrer le brouillon"]),
    ("es", &["borrador", "guardar borrador"]),
    ("it", &["bozza", "salva bozza"]),
    ("pt", &["rascunho", "salvar rascunho"]),
    ("nl", &["concept", "concept opslaan"]),
    ("pl", &["szkic", "zapisz szkic"]),
    ("ru", &["черновик", "сохранить черновик"]),
    ("uk", &["чернетка", "чернетку", "зберегти чернетку"]),
    ("tr", &["taslak", "taslağı kaydet"]),
    ("ja", &["下書き", "下書き保存"]),
    ("zh", &["草稿", "保存草稿"]),
    ("ko", &["임시저장", "임시 저장"]),
];

/// Cookie consent: a dialog about cookies is not a dialog opened by a risky action.
pub const COOKIE: WordList = &[
    ("en de fr es it pt nl pl", &["cookie", "cookies"]),
    ("ru", &["куки"]),
    ("tr", &["çerez", "çerezler", "çerezleri"]),
    ("ja", &["クッキー"]),
    ("ko", &["쿠키"]),
];

/// Captchas and "are you human" checks. Any text containing `captcha` counts as well.
pub const CAPTCHA: WordList = &[
    (
        "en",
        &[
            "recaptcha",
            "hcaptcha",
            "turnstile",
            "i'm not a robot",
            "i am not a robot",
            "verify you are human",
            "are you a robot",
        ],
    ),
    ("de", &["ich bin kein roboter"]),
    ("fr", &["je ne suis pas un robot"]),
    ("es", &["no soy un robot"]),
    ("it", &["non sono un robot"]),
    ("pt", &["não sou um robô"]),
    ("nl", &["ik ben geen robot"]),
    ("pl", &["nie jestem robotem"]),
    ("ru uk", &["я не робот"]),
    ("tr", &["robot değilim"]),
    ("ja", &["ロボットではありません"]),
    ("zh", &["我不是机器人", "我不是機器人", "人机验证"]),
    ("ko", &["로봇이 아닙니다"]),
];

/// Words too short or too common to trust outside a button or link label: in free text (and on other
/// elements) `ja`, `da` or `ok` are everywhere. Each also sits in its class list above.
pub const AMBIGUOUS_SHORT: &[&str] = &[
    "sil", "kup", "öde", "ja", "ok", "yes", "oui", "sí", "sì", "sim", "tak", "так", "да", "evet", "go",
    "post", "是", "예", "네", "はい",
];

/// Path and attribute hints (checked on the tokens of a URL, a form action, id/class/name hints and the
/// label): each token that starts with one of these is a risky signal. They only make a generic
/// button risky, never reading or an ordinary click.
pub const RISK_HINTS: &[&str] = &[
    "checkout",
    "payment",
    "pay",
    "billing",
    "order",
    "purchase",
    "buy",
    "donat",
    "delete",
    "remove",
    "unsubscribe",
    "cancel",
    "transfer",
    "kasse",
    "bestellung",
    "zahlung",
    "bezahl",
    "paiement",
    "commande",
    "pago",
    "pedido",
    "ordine",
    "zamowienie",
    "zamówienie",
    "oplata",
    "opłata",
    "platnosc",
    "płatność",
    "zakup",
    "pagamento",
    "acquisto",
    "betaling",
    "afrekenen",
    "bestelling",
    "odeme",
    "ödeme",
    "siparis",
    "sipariş",
    "замовлення",
    "оплат",
    "заказ",
];

/// Hints that span path segments: matched as substrings of the lowercased, percent-decoded URL.
pub const RISK_PATHS: &[&str] = &["cart/confirm", "account/close", "account/delete"];

/// Navigation is reading, except to addresses whose path obviously does something destructive: a
/// segment (or query value) starting with one of these words.
pub const DESTRUCTIVE_PATH_HEADS: &[&str] = &[
    "delete",
    "remove",
    "destroy",
    "erase",
    "wipe",
    "unsubscribe",
    "deactivate",
    "terminate",
];

/// Path and query words that are destructive only as a whole word (`/orders/5/cancel`, `?action=drop`),
/// not as the start of a longer one (`/cancellation-policy`, `/dropbox`).
pub const DESTRUCTIVE_PATH_WORDS: &[&str] = &[
    "cancel", "drop", "truncate", "purge", "revoke", "discard", "unlink",
];

/// Query keys whose value is what a search looks for, never an action (`?q=delete+files`).
pub const SEARCH_KEYS: &[&str] = &[
    "q",
    "query",
    "search",
    "s",
    "k",
    "keyword",
    "keywords",
    "term",
    "text",
    "find",
    "search_query",
];

/// Query keys whose value is an act the address asks for (`?action=trash`, `?op=drop`, `?do=delete`).
pub const ACTION_KEYS: &[&str] = &[
    "action", "act", "do", "op", "cmd", "command", "task", "method", "mode",
];

/// Delete words that name a place, not an act, as a path segment (`/password/reset` is a form to fill
/// in, `/mail/trash` a folder to read).
pub const PATH_NOT_DESTRUCTIVE: &[&str] = &["reset", "trash"];

/// Words of a frame's address that say it is a payment provider's (`pay.example`, `/payment-request`,
/// `checkout.example`, `/wallet/buttons`): a control in such a frame of another site pays.
pub const PAYMENT_FRAME_HINTS: &[&str] = &["pay", "checkout", "wallet", "billing", "payment"];

/// Destructive paths that span segments: substrings of the lowercased, percent-decoded URL.
pub const DESTRUCTIVE_PATHS: &[&str] = &[
    "account/close",
    "account/delete",
    "close-account",
    "close_account",
    "closeaccount",
];

/// URL schemes that run code, open local data or start calls instead of showing a web page.
pub const RISKY_SCHEMES: &[&str] = &[
    "javascript",
    "vbscript",
    "data",
    "file",
    "blob",
    "filesystem",
    "chrome",
    "chrome-extension",
    "edge",
    "intent",
    "tel",
    "sms",
    "mailto",
];

/// Currency signs that mark a number as a price, before or after it.
pub const CURRENCY_SIGNS: &[char] = &[
    '$', '€', '£', '¥', '₽', '₴', '₺', '₩', '₹', '¢', '₪', '₫', '₱', '₦', '₡', '₲', '₵', '₸', '₼', '₾', '₿',
    '฿', '₭', '₮', '₣', '₤', '৳', '円', '元', '원',
];

/// Currency codes and abbreviations (lowercase), before or after a number, as whole words.
pub const CURRENCY_CODES: &[&str] = &[
    "usd", "eur", "gbp", "chf", "jpy", "cny", "rmb", "rub", "uah", "pln", "sek", "nok", "dkk", "czk", "huf",
    "krw", "inr", "brl", "cad", "aud", "nzd", "hkd", "sgd", "mxn", "ars", "clp", "cop", "zar", "ils", "aed",
    "sar", "zł", "zl", "kr", "kč", "lei", "tl", "rs", "руб", "грн",
];
