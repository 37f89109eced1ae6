//! `waymark-host classify`, driven through its real stdin/stdout: a multilingual table of proposed
//! actions and the decision each must get, plus malformed lines, ordering and the interactive pipe.
#![allow(clippy::unwrap_used)] // test code: a panic is the failure report

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::Value;

/// One case: language (or topic), input line, expected decision, text the reason must contain ("" for
/// no check).
type Case = (&'static str, &'static str, &'static str, &'static str);

#[rustfmt::skip]
const CASES: &[Case] = &[
    // --- per language: pay/order ⇒ confirm, delete ⇒ confirm, a harmless control ⇒ allow ---
    ("en", r#"{"action":"click","element":{"role":"button","name":"Place order"}}"#, "confirm", "paying"),
    ("en", r#"{"action":"click","element":{"role":"button","name":"Delete account"}}"#, "confirm", "deleting"),
    ("en", r#"{"action":"click","element":{"role":"button","name":"Search"}}"#, "allow", ""),
    ("en", r#"{"action":"click","element":{"role":"button","name":"Send"}}"#, "confirm", "sending"),
    ("de", r#"{"action":"click","element":{"role":"button","name":"Zahlungspflichtig bestellen"}}"#, "confirm", "'Zahlungspflichtig bestellen' means paying"),
    ("de", r#"{"action":"click","element":{"role":"button","name":"Konto endgültig löschen"}}"#, "confirm", "deleting, removing or cancelling something (it says 'endgültig löschen')"),
    ("de", r#"{"action":"click","element":{"role":"button","name":"In den Warenkorb"}}"#, "allow", "cart"),
    ("fr", r#"{"action":"click","element":{"role":"button","name":"Valider la commande"}}"#, "confirm", "paying"),
    ("fr", r#"{"action":"click","element":{"role":"button","name":"Supprimer"}}"#, "confirm", "deleting"),
    ("fr", r#"{"action":"click","element":{"role":"link","name":"Page suivante"}}"#, "allow", ""),
    ("es", r#"{"action":"click","element":{"role":"button","name":"Finalizar compra"}}"#, "confirm", "paying"),
    ("es", r#"{"action":"click","element":{"role":"button","name":"Eliminar cuenta"}}"#, "confirm", "deleting"),
    ("es", r#"{"action":"click","element":{"role":"button","name":"Añadir al carrito"}}"#, "allow", "cart"),
    ("it", r#"{"action":"click","element":{"role":"button","name":"Procedi al pagamento"}}"#, "confirm", "paying"),
    ("it", r#"{"action":"click","element":{"role":"button","name":"Elimina"}}"#, "confirm", "deleting"),
    ("it", r#"{"action":"click","element":{"role":"button","name":"Cerca"}}"#, "allow", ""),
    ("pt", r#"{"action":"click","element":{"role":"button","name":"Finalizar pedido"}}"#, "confirm", "paying"),
    ("pt", r#"{"action":"click","element":{"role":"button","name":"Excluir conta"}}"#, "confirm", "deleting"),
    ("pt", r#"{"action":"click","element":{"role":"button","name":"Adicionar ao carrinho"}}"#, "allow", "cart"),
    ("nl", r#"{"action":"click","element":{"role":"button","name":"Bestellen en betalen"}}"#, "confirm", "paying"),
    ("nl", r#"{"action":"click","element":{"role":"button","name":"Verwijderen"}}"#, "confirm", "deleting"),
    ("nl", r#"{"action":"click","element":{"role":"button","name":"Zoeken"}}"#, "allow", ""),
    ("pl", r#"{"action":"click","element":{"role":"button","name":"Zamawiam i płacę"}}"#, "confirm", "paying"),
    ("pl", r#"{"action":"click","element":{"role":"button","name":"Usuń konto"}}"#, "confirm", "deleting"),
    ("pl", r#"{"action":"click","element":{"role":"button","name":"Dodaj do koszyka"}}"#, "allow", "cart"),
    ("pl", r#"{"action":"click","element":{"role":"button","name":"Kup"}}"#, "confirm", "paying"),
    ("ru", r#"{"action":"click","element":{"role":"button","name":"Оформить заказ"}}"#, "confirm", "paying"),
    ("ru", r#"{"action":"click","element":{"role":"button","name":"Удалить"}}"#, "confirm", "deleting"),
    ("ru", r#"{"action":"click","element":{"role":"button","name":"Найти"}}"#, "allow", ""),
    ("uk", r#"{"action":"click","element":{"role":"button","name":"Оплатити"}}"#, "confirm", "paying"),
    ("uk", r#"{"action":"click","element":{"role":"button","name":"Видалити"}}"#, "confirm", "deleting"),
    ("uk", r#"{"action":"click","element":{"role":"button","name":"Додати в кошик"}}"#, "allow", "cart"),
    ("tr", r#"{"action":"click","element":{"role":"button","name":"Siparişi tamamla"}}"#, "confirm", "paying"),
    ("tr", r#"{"action":"click","element":{"role":"button","name":"SİL"}}"#, "confirm", "deleting"),
    ("tr", r#"{"action":"click","element":{"role":"button","name":"Sepete ekle"}}"#, "allow", "cart"),
    ("tr", r#"{"action":"click","element":{"role":"link","name":"Silver"}}"#, "allow", ""),
    ("ja", r#"{"action":"click","element":{"role":"button","name":"注文を確定する"}}"#, "confirm", "paying"),
    ("ja", r#"{"action":"click","element":{"role":"button","name":"削除"}}"#, "confirm", "deleting"),
    ("ja", r#"{"action":"click","element":{"role":"button","name":"検索"}}"#, "allow", ""),
    ("zh", r#"{"action":"click","element":{"role":"button","name":"提交订单"}}"#, "confirm", "paying"),
    ("zh", r#"{"action":"click","element":{"role":"button","name":"删除"}}"#, "confirm", "deleting"),
    ("zh", r#"{"action":"click","element":{"role":"button","name":"加入购物车"}}"#, "allow", "cart"),
    ("ko", r#"{"action":"click","element":{"role":"button","name":"결제하기"}}"#, "confirm", "paying"),
    ("ko", r#"{"action":"click","element":{"role":"button","name":"삭제"}}"#, "confirm", "deleting"),
    ("ko", r#"{"action":"click","element":{"role":"link","name":"다음 페이지"}}"#, "allow", ""),
    // --- prices in labels, several currencies, sign before or after ---
    ("price", r#"{"action":"click","element":{"role":"button","name":"Upgrade €84.97"}}"#, "confirm", "price (€84.97)"),
    ("price", r#"{"action":"click","element":{"role":"button","name":"Pro 84,97 €"}}"#, "confirm", "price (84,97 €)"),
    ("price", r#"{"action":"click","element":{"role":"button","name":"Get Pro — $9.99"}}"#, "confirm", "price ($9.99)"),
    ("price", r#"{"action":"click","element":{"role":"button","name":"Renew £12"}}"#, "confirm", "price (£12)"),
    ("price", r#"{"action":"click","element":{"role":"button","name":"Продлить 1 990 ₽"}}"#, "confirm", "price (1 990 ₽)"),
    ("price", r#"{"action":"click","element":{"role":"button","name":"Pakiet 49,99 zł"}}"#, "confirm", "price (49,99 zł)"),
    ("price", r#"{"action":"click","element":{"role":"button","name":"Premium CHF 12.50"}}"#, "confirm", "price (chf 12.50)"),
    ("price", r#"{"action":"click","element":{"role":"button","name":"プレミアム ¥1,000"}}"#, "confirm", "price (¥1,000)"),
    ("price", r#"{"action":"click","element":{"role":"button","name":"Премиум 99 ₴"}}"#, "confirm", "price (99 ₴)"),
    ("price", r#"{"action":"click","element":{"role":"button","name":"Premium 199 kr"}}"#, "confirm", "price (199 kr)"),
    ("price", r#"{"action":"click","element":{"role":"button","name":"프리미엄 ₩9,900"}}"#, "confirm", "price (₩9,900)"),
    ("price", r#"{"action":"click","element":{"role":"button","name":"Premium USD 5"}}"#, "confirm", "price (usd 5)"),
    ("price", r#"{"action":"click","element":{"role":"link","name":"Page 2 of 5"}}"#, "allow", ""),
    // --- yes/continue: only in a risky context ---
    ("context", r#"{"action":"click","element":{"role":"button","name":"OK"}}"#, "allow", ""),
    ("context", r#"{"action":"click","element":{"role":"button","name":"OK","in_dialog":true}}"#, "confirm", "dialog"),
    ("context", r#"{"action":"click","element":{"role":"button","name":"Weiter"},"url":"https://shop.example/checkout/address"}"#, "confirm", "'checkout'"),
    ("context", r#"{"action":"click","element":{"role":"button","name":"Continuer","form":{"action":"/commande/valider","method":"post"}}}"#, "confirm", "'commande'"),
    ("context", r#"{"action":"click","element":{"role":"button","name":"Да","text_around":"Удалить этот файл? Действие нельзя отменить."}}"#, "confirm", "'удалить'"),
    ("context", r#"{"action":"click","element":{"role":"link","name":"Read more","text_around":"Delete"}}"#, "allow", ""),
    // --- press Enter ---
    ("press", r#"{"action":"press","key":"Enter","element":{"tag":"input","type":"text","name":"Gutscheincode","form":{"action":"/kasse/bestellung","method":"post"}}}"#, "confirm", "'kasse'"),
    ("press", r#"{"action":"press","key":"Enter","element":{"role":"searchbox","name":"Search","form":{"action":"/search","method":"get"}}}"#, "allow", ""),
    ("press", r#"{"action":"press","key":"Tab","element":{"role":"button","name":"Delete"}}"#, "allow", ""),
    // --- handoff: password, one-time code, card, captcha ---
    ("handoff", r#"{"action":"type","element":{"tag":"input","type":"password","name":"Password"},"text":"hunter2"}"#, "handoff", "a password"),
    ("handoff", r#"{"action":"type","element":{"tag":"input","name":"Mot de passe"},"text":"x"}"#, "handoff", "a password"),
    ("handoff", r#"{"action":"type","element":{"tag":"input","autocomplete":"one-time-code"},"text":"123456"}"#, "handoff", "a one-time code"),
    ("handoff", r#"{"action":"type","element":{"tag":"input","name":"Код подтверждения"},"text":"123456"}"#, "handoff", "a one-time code"),
    ("handoff", r#"{"action":"type","element":{"tag":"input","name":"認証コード"},"text":"123456"}"#, "handoff", "a one-time code"),
    ("handoff", r#"{"action":"type","element":{"tag":"input","autocomplete":"cc-number","name":"Kartennummer"},"text":"4111"}"#, "handoff", "card details"),
    ("handoff", r#"{"action":"type","element":{"tag":"input","name":"CVV"},"text":"123"}"#, "handoff", "card details"),
    ("handoff", r#"{"action":"type","element":{"tag":"input","name":"Número de tarjeta"},"text":"4111"}"#, "handoff", "card details"),
    ("handoff", r#"{"action":"type","element":{"tag":"input","name":"Notes"},"text":"4111 1111 1111 1111"}"#, "handoff", "card number"),
    ("handoff", r#"{"action":"type","element":{"tag":"input","name":"PIN-Code"},"text":"1234"}"#, "handoff", "a PIN"),
    ("handoff", r#"{"action":"type","element":{"tag":"input","name":"Enter code","id_hints":"otp"},"text":"123456"}"#, "handoff", "a one-time code"),
    ("handoff", r#"{"action":"type","element":{"tag":"input","name":"Card number","id_hints":"cardnumber","autocomplete":"off"},"text":"4111"}"#, "handoff", "card details"),
    ("handoff", r#"{"action":"type","element":{"tag":"input","type":"text","name":"Memorable word","secret":"password"},"text":"x"}"#, "handoff", "a password"),
    ("type", r#"{"action":"type","element":{"tag":"input","name":"Promo code"},"text":"SAVE10"}"#, "allow", "ordinary input"),
    ("handoff", r#"{"action":"click","element":{"role":"checkbox","name":"I'm not a robot"}}"#, "handoff", "captcha"),
    ("handoff", r#"{"action":"click","element":{"role":"button","name":"Verify","id_hints":"h-captcha"}}"#, "handoff", "captcha"),
    // --- ordinary input and navigation ---
    ("type", r#"{"action":"type","element":{"role":"searchbox","name":"Suche"},"text":"Regenjacke"}"#, "allow", "ordinary input"),
    ("navigate", r#"{"action":"navigate","url":"https://example.com/news"}"#, "allow", "reading"),
    ("navigate", r#"{"action":"navigate","url":"https://example.com/account/close"}"#, "confirm", "destructive"),
    ("navigate", r#"{"action":"navigate","url":"javascript:alert(1)"}"#, "confirm", "javascript"),
    // --- effects: every word, where a link goes, what a form does, Enter, choices, publishing ---
    ("effect", r#"{"action":"click","element":{"role":"link","name":"Read more","label":"Read more","text":"Delete all mail"}}"#, "confirm", "deleting"),
    ("effect", r#"{"action":"click","element":{"role":"link","name":"Read more","href":"https://mail.example/delete-all"}}"#, "confirm", "looks destructive"),
    ("effect", r#"{"action":"click","element":{"role":"link","name":"Weiterlesen","href":"https://news.example/artikel/42"}}"#, "allow", ""),
    ("effect", r#"{"action":"click","element":{"role":"link","name":"Написать нам","href":"mailto:a@b.example"}}"#, "confirm", "'mailto:'"),
    ("effect", r#"{"action":"click","element":{"role":"button","name":"Read more","label":"Read more","text":"Archive everything"}}"#, "confirm", "is not what it shows"),
    ("effect", r#"{"action":"click","element":{"role":"button","name":"Close","label":"Close","text":"×"}}"#, "allow", ""),
    ("effect", r#"{"action":"click","element":{"role":"button","name":"Entwurf speichern","submits":{"action":"https://blog.example/post/5/delete","method":"post"}}}"#, "confirm", "destructive"),
    ("effect", r#"{"action":"click","element":{"role":"button","name":"Update","context":"Switch to draft Preview View Post Update"}}"#, "confirm", "saving publishes"),
    ("effect", r#"{"action":"click","element":{"role":"button","name":"Save changes","context":"Please note that all contributions to My Wiki may be edited, altered, or removed by other contributors."}}"#, "confirm", "saving publishes"),
    ("effect", r#"{"action":"click","element":{"role":"button","name":"Записать страницу","context":"Сохраняя изменения, вы соглашаетесь передать свой вклад под лицензией CC BY-SA"}}"#, "confirm", "saving publishes"),
    ("effect", r#"{"action":"click","element":{"role":"button","name":"Save Changes","context":"General Settings Site Title Tagline"}}"#, "allow", ""),
    ("effect", r#"{"action":"click","element":{"role":"button","name":"Enregistrer le brouillon","context":"Article publié"}}"#, "allow", ""),
    ("effect", r#"{"action":"press","key":"Enter","element":{"role":"textbox","tag":"div","name":"Message #team","editable":true,"sends_on_enter":true}}"#, "confirm", "sends what it holds"),
    ("effect", r#"{"action":"press","key":"Enter","element":{"tag":"input","type":"text","name":"Coupon code","editable":true,"submits":{"action":"https://shop.example/order","method":"post","submitter":"Place order (€84.97)"}}}"#, "confirm", "presses 'Place order (€84.97)'"),
    ("effect", r#"{"action":"press","key":"Enter","element":{"tag":"input","type":"search","name":"Suche","editable":true,"submits":{"action":"https://shop.example/suche","method":"get","submitter":"Suchen"}}}"#, "allow", ""),
    ("effect", r#"{"action":"press","key":"Delete","element":{"role":"row","name":"Message from Bob"}}"#, "confirm", "command to delete"),
    ("effect", r#"{"action":"press","key":"Delete"}"#, "confirm", "nothing has the focus"),
    ("effect", r#"{"action":"select","element":{"role":"combobox","tag":"select","name":"Bulk actions"},"text":"Delete selected forever"}"#, "confirm", "choosing"),
    ("effect", r#"{"action":"select","element":{"role":"combobox","tag":"select","name":"Сортировка"},"text":"По цене"}"#, "allow", ""),
    // A line break typed into a multi-line field (a text area, a code editor) is text; into a one-line
    // chat box it is Enter, which sends.
    ("effect", r#"{"action":"type","element":{"role":"textbox","tag":"textarea","name":"Reply to all","editable":true,"sends_on_enter":true},"text":"hello\n"}"#, "allow", "ordinary input"),
    ("effect", r#"{"action":"type","element":{"role":"textbox","tag":"div","name":"Cell 3","editable":true,"multiline":true,"sends_on_enter":true},"text":"import os\nprint(os.getcwd())"}"#, "allow", "ordinary input"),
    ("effect", r#"{"action":"type","element":{"role":"textbox","tag":"div","name":"Message #team","editable":true,"multiline":false,"sends_on_enter":true},"text":"hi\n"}"#, "confirm", "sends what it holds"),
    // --- the missing destructive verbs, in several languages (issue 24) ---
    ("en", r#"{"action":"click","element":{"role":"link","name":"Drop"},"url":"https://db.example/db_structure.php"}"#, "confirm", "deleting"),
    ("en", r#"{"action":"click","element":{"role":"link","name":"Empty"},"url":"https://db.example/db_structure.php"}"#, "confirm", "deleting"),
    ("en", r#"{"action":"click","element":{"role":"button","name":"Truncate table"}}"#, "confirm", "deleting"),
    ("en", r#"{"action":"click","element":{"role":"button","name":"Purge cache"}}"#, "confirm", "deleting"),
    ("en", r#"{"action":"click","element":{"role":"button","name":"Revoke token"}}"#, "confirm", "deleting"),
    ("en", r#"{"action":"click","element":{"role":"button","name":"Terminate instance"}}"#, "confirm", "deleting"),
    ("en", r#"{"action":"click","element":{"role":"button","name":"Drop files here"}}"#, "allow", ""),
    ("en", r#"{"action":"click","element":{"role":"checkbox","name":"Show empty folders"}}"#, "allow", ""),
    ("de", r#"{"action":"click","element":{"role":"button","name":"Tabelle leeren"}}"#, "confirm", "deleting"),
    ("de", r#"{"action":"click","element":{"role":"button","name":"Zugriff widerrufen"}}"#, "confirm", "deleting"),
    ("fr", r#"{"action":"click","element":{"role":"button","name":"Vider la table"}}"#, "confirm", "deleting"),
    ("fr", r#"{"action":"click","element":{"role":"button","name":"Révoquer l'accès"}}"#, "confirm", "deleting"),
    ("es", r#"{"action":"click","element":{"role":"button","name":"Vaciar tabla"}}"#, "confirm", "deleting"),
    ("it", r#"{"action":"click","element":{"role":"button","name":"Svuota tabella"}}"#, "confirm", "deleting"),
    ("pt", r#"{"action":"click","element":{"role":"button","name":"Esvaziar lixeira"}}"#, "confirm", "deleting"),
    ("nl", r#"{"action":"click","element":{"role":"button","name":"Toegang intrekken"}}"#, "confirm", "deleting"),
    ("pl", r#"{"action":"click","element":{"role":"button","name":"Opróżnij kosz"}}"#, "confirm", "deleting"),
    ("ru", r#"{"action":"click","element":{"role":"button","name":"Отозвать доступ"}}"#, "confirm", "deleting"),
    ("uk", r#"{"action":"click","element":{"role":"button","name":"Знищити"}}"#, "confirm", "deleting"),
    ("tr", r#"{"action":"click","element":{"role":"button","name":"Tabloyu boşalt"}}"#, "confirm", "deleting"),
    ("ja", r#"{"action":"click","element":{"role":"button","name":"ゴミ箱を空にする"}}"#, "confirm", "deleting"),
    ("zh", r#"{"action":"click","element":{"role":"button","name":"撤销授权"}}"#, "confirm", "deleting"),
    ("ko", r#"{"action":"click","element":{"role":"button","name":"휴지통 비우기"}}"#, "confirm", "deleting"),
    // --- opening a mail whose subject says delete is reading; the command is not ---
    ("en", r#"{"action":"click","element":{"role":"link","name":"Re: please delete the old backups","href":"https://mail.example/?_task=mail&_uid=42&_action=show"},"url":"https://mail.example/?_task=mail"}"#, "allow", ""),
    ("de", r#"{"action":"click","element":{"role":"link","name":"AW: Bitte die alten Sicherungen löschen","href":"https://mail.example/nachricht/42"},"url":"https://mail.example/posteingang"}"#, "allow", ""),
    ("ru", r#"{"action":"click","element":{"role":"row","name":"Анна Можно удалить старые копии до пятницы? 10:42"}}"#, "allow", ""),
    ("fr", r#"{"action":"click","element":{"role":"option","name":"Paul — Faut-il supprimer le brouillon de la note ?"}}"#, "allow", ""),
    ("en", r#"{"action":"click","element":{"role":"link","name":"Delete","href":"https://mail.example/?_task=mail&_uid=42"},"url":"https://mail.example/?_task=mail"}"#, "confirm", "deleting"),
    // --- addresses judged by their path and query words ---
    ("navigate", r#"{"action":"navigate","url":"https://shop.example/orders/5/cancel"}"#, "confirm", "'cancel'"),
    ("navigate", r#"{"action":"navigate","url":"https://db.example/sql.php?db=shop&action=drop"}"#, "confirm", "'drop'"),
    ("navigate", r#"{"action":"navigate","url":"https://site.example/compte/supprimer"}"#, "confirm", "'supprimer'"),
    ("navigate", r#"{"action":"navigate","url":"https://shop.example/cancellation-policy"}"#, "allow", ""),
    ("navigate", r#"{"action":"navigate","url":"https://shop.example/search?q=cancel+order"}"#, "allow", ""),
    // --- keys without a target reach the page ---
    ("keys", r#"{"action":"press","key":"Enter"}"#, "confirm", "nothing has the focus"),
    ("keys", r##"{"action":"press","key":"#"}"##, "confirm", "as a command"),
    ("keys", r#"{"action":"press","key":"Delete","element":{"role":"gridcell","name":"Quarterly report"}}"#, "confirm", "command to delete"),
    ("keys", r#"{"action":"press","key":"e","element":{"role":"row","name":"Quarterly report"}}"#, "confirm", "has no key"),
    ("keys", r#"{"action":"press","key":"ArrowDown"}"#, "allow", ""),
    ("keys", r#"{"action":"press","key":"Escape","open_layer":true}"#, "allow", ""),
    ("keys", r#"{"action":"press","key":"j","shortcut":{"role":"button","name":"Next conversation"}}"#, "allow", "binds"),
    ("keys", r#"{"action":"press","key":"a","element":{"tag":"input","type":"text","name":"Name","editable":true}}"#, "allow", ""),
    // --- the page's own question, marks of danger, a payment frame, a button that only opens ---
    ("asks", r#"{"action":"click","element":{"role":"button","name":"OK","asks":"Delete your account permanently?"}}"#, "confirm", "answers the page's question"),
    ("asks", r#"{"action":"click","element":{"role":"button","name":"Weiter","asks":"Alle 214 Nachrichten werden endgültig gelöscht. Wirklich endgültig löschen?"}}"#, "confirm", "answers the page's question"),
    ("asks", r#"{"action":"click","element":{"role":"button","name":"Cancel","asks":"Delete your account permanently?","in_dialog":true}}"#, "allow", ""),
    ("asks", r#"{"action":"click","element":{"role":"button","name":"OK","asks":"Your profile was saved."}}"#, "allow", ""),
    ("danger", r#"{"action":"click","element":{"role":"button","name":"Διαγραφή λογαριασμού","danger":"marked"}}"#, "confirm", "marked as destructive"),
    ("danger", r#"{"action":"click","element":{"role":"button","name":"Poista","danger":"alert_dialog"}}"#, "confirm", "alert dialog"),
    ("danger", r#"{"action":"click","element":{"role":"button","name":"Törlés","danger":"warning"}}"#, "confirm", "warning"),
    ("danger", r#"{"action":"click","element":{"role":"button","name":"Peruuta","danger":null}}"#, "allow", ""),
    ("frame", r#"{"action":"click","element":{"role":"button","name":""},"url":"https://pay.wallet.example/button?v=2","top_url":"https://shop.example/checkout"}"#, "confirm", "payment provider"),
    ("frame", r#"{"action":"click","element":{"role":"button","name":"PayPal"}}"#, "confirm", "paying"),
    ("frame", r#"{"action":"click","element":{"role":"button","name":"Play"},"url":"https://video.example/embed/7","top_url":"https://news.example/"}"#, "allow", ""),
    ("opens", r#"{"action":"click","element":{"role":"button","name":"Delete","opens_dialog":true}}"#, "allow", "only opens the page's own dialog"),
    ("opens", r#"{"action":"click","element":{"role":"button","name":"Delete","in_dialog":true,"asks":"Delete 'Quarterly report'? This cannot be undone."}}"#, "confirm", "deleting"),
    // --- malformed lines fail closed; missing fields do not ---
    ("bad", r#"{"action":"click","#, "confirm", "unreadable input: "),
    ("bad", r#"not json at all"#, "confirm", "unreadable input: "),
    ("bad", r#"["click"]"#, "confirm", "unreadable input: "),
    ("bad", r#"{"action":"teleport"}"#, "confirm", "unreadable input: unknown variant"),
    ("bad", r#"{"action":"click","element":{"in_dialog":"yes"}}"#, "confirm", "unreadable input: "),
    ("empty", r#"{}"#, "allow", ""),
    ("empty", r#"{"action":"click","element":{"name":"","role":"","tag":""},"url":"","text":""}"#, "allow", ""),
];

fn run_classify(input: &[u8]) -> (Vec<String>, std::process::ExitStatus) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_waymark-host"))
        .arg("classify")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Write from another thread so a full stdout pipe can never deadlock the test.
    let writer = std::thread::spawn(move || {
        stdin.write_all(&input).unwrap();
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(
        output.stderr.is_empty(),
        "stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).unwrap();
    (text.lines().map(str::to_owned).collect(), output.status)
}

#[test]
fn the_table_in_fourteen_languages_gets_one_answer_per_line_in_order() {
    // Blank lines between cases get no answer; every other line gets exactly one.
    let mut input = String::new();
    for (_, line, _, _) in CASES {
        input.push_str(line);
        input.push_str("\n\n");
    }
    let (answers, status) = run_classify(input.as_bytes());
    assert!(status.success(), "{status}");
    assert_eq!(
        answers.len(),
        CASES.len(),
        "one answer per non-blank line:\n{}",
        answers.join("\n")
    );

    let mut failures = Vec::new();
    for ((lang, line, decision, reason_has), answer) in CASES.iter().zip(&answers) {
        let got: Value = serde_json::from_str(answer).unwrap();
        let object = got.as_object().unwrap();
        assert_eq!(object.len(), 2, "only decision and reason: {answer}");
        let reason = got["reason"].as_str().unwrap();
        assert!(!reason.is_empty(), "{answer}");
        if got["decision"] != *decision || !reason.contains(reason_has) {
            failures.push(format!(
                "[{lang}] {line}\n   want {decision} with {reason_has:?}\n   got  {answer}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} case(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The figures the gate is held to on this table: of the actions that must be asked about, at least
/// 97% are (recall); of the harmless ones, at most 10% are asked about (false asks).
#[test]
fn the_table_keeps_its_figures_recall_and_false_asks() {
    let mut input = String::new();
    for (_, line, _, _) in CASES {
        input.push_str(line);
        input.push('\n');
    }
    let (answers, _) = run_classify(input.as_bytes());
    let (mut must, mut asked, mut harmless, mut false_asks) = (0, 0, 0, 0);
    for ((_, _, want, _), answer) in CASES.iter().zip(&answers) {
        let got: Value = serde_json::from_str(answer).unwrap();
        let stopped = got["decision"] != "allow";
        match *want {
            "confirm" | "handoff" => {
                must += 1;
                asked += usize::from(stopped);
            }
            _ => {
                harmless += 1;
                false_asks += usize::from(stopped);
            }
        }
    }
    let recall = asked as f64 / must as f64;
    let false_rate = false_asks as f64 / harmless as f64;
    eprintln!("recall {recall:.3} ({asked}/{must}), false asks {false_rate:.3} ({false_asks}/{harmless})");
    assert!(recall >= 0.97, "recall {recall}");
    assert!(false_rate <= 0.10, "false asks {false_rate}");
}

#[test]
fn the_table_covers_every_language_with_pay_delete_and_a_harmless_control() {
    for lang in [
        "en", "de", "fr", "es", "it", "pt", "nl", "pl", "ru", "uk", "tr", "ja", "zh", "ko",
    ] {
        let of_lang: Vec<&Case> = CASES.iter().filter(|c| c.0 == lang).collect();
        assert!(
            of_lang.iter().any(|c| c.2 == "confirm" && c.3.contains("paying")),
            "{lang}: pay"
        );
        assert!(
            of_lang
                .iter()
                .any(|c| c.2 == "confirm" && c.3.contains("deleting")),
            "{lang}: delete"
        );
        assert!(of_lang.iter().any(|c| c.2 == "allow"), "{lang}: allow");
    }
}

#[test]
fn answers_come_line_by_line_as_a_pipe() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_waymark-host"))
        .arg("classify")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    // Each answer must arrive before the next line is written: the host flushes per line.
    for (_, line, decision, _) in &CASES[..6] {
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        let mut answer = String::new();
        stdout.read_line(&mut answer).unwrap();
        let got: Value = serde_json::from_str(&answer).unwrap();
        assert_eq!(got["decision"], *decision, "{line} -> {answer}");
    }
    drop(stdin);
    let mut rest = String::new();
    assert_eq!(
        stdout.read_line(&mut rest).unwrap(),
        0,
        "nothing after end of input: {rest:?}"
    );
    assert!(child.wait().unwrap().success());
}

#[test]
fn odd_bytes_and_line_endings_still_get_one_answer_each() {
    let input = b"\xff\xfe\n{\"action\":\"click\",\"element\":{\"name\":\"Pay\"}}\r\n   \n\n{\"action\":\"navigate\"}";
    let (answers, status) = run_classify(input);
    assert!(status.success());
    let decisions: Vec<String> = answers
        .iter()
        .map(|a| {
            serde_json::from_str::<Value>(a).unwrap()["decision"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    // The last line has no newline and is still answered.
    assert_eq!(decisions, ["confirm", "confirm", "allow"]);
    assert!(answers[0].contains("unreadable input"));
}

#[test]
fn empty_input_gives_no_output_and_success() {
    let (answers, status) = run_classify(b"");
    assert!(status.success());
    assert!(answers.is_empty());
}
