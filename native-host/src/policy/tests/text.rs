//! Normalisation, whole-word matching (Chinese, Japanese and Korean inside short labels) and prices.

use super::*;

// --- normalisation and matching ---------------------------------------------------------------------

#[test]
fn normalize_folds_width_case_dashes_apostrophes_and_invisible_characters() {
    assert_eq!(normalize("  ＰＡＹ\u{00A0}Now "), "pay now");
    assert_eq!(normalize("Check-out"), "check out");
    assert_eq!(normalize("S’abonner"), "s'abonner");
    assert_eq!(normalize("De\u{200B}le\u{00AD}te"), "delete");
    assert_eq!(normalize("SİL"), "sil");
    assert_eq!(normalize("KALDIR"), normalize("kaldır"));
    assert_eq!(normalize("a\n\t b"), "a b");
}

#[test]
fn every_word_list_entry_survives_normalisation() {
    let lists = [
        words::PAY,
        words::DELETE,
        words::SEND,
        words::CONFIRM,
        words::NEXT,
        words::ADD_TO_CART,
        words::COOKIE,
        words::CAPTCHA,
        words::SAVE,
        words::PUBLISHED,
        words::PRIVATE,
        words::DRAFT,
    ];
    for list in lists {
        for (lang, terms) in list {
            assert!(!terms.is_empty(), "{lang}");
            for term in *terms {
                assert!(!normalize(term).is_empty(), "{lang}: {term:?}");
            }
        }
    }
    // Each ambiguous word is in some list, or marking it would be pointless.
    for w in words::AMBIGUOUS_SHORT {
        let n = normalize(w);
        let known = lists
            .iter()
            .flat_map(|l| l.iter())
            .flat_map(|(_, t)| t.iter())
            .any(|t| normalize(t) == n);
        assert!(known, "{w}");
    }
}

#[test]
fn words_match_whole_with_unicode_boundaries() {
    assert!(contains_word("pay now", "pay"));
    assert!(contains_word("(pay)", "pay"));
    assert!(!contains_word("prepay info", "pay"));
    assert!(!contains_word("payment", "pay"));
    assert!(!contains_word("silver", "sil"));
    // Cyrillic boundaries work (JavaScript's `\b` knows only ASCII letters, so it would split here).
    assert!(contains_word("оплатить заказ", "оплатить"));
    assert!(!contains_word("переоплатить", "оплатить"));
    assert!(!contains_word("pay2", "pay"));
}

/// Pinned: "Prepay info" is not "pay" (whole words only), so it is an ordinary button.
#[test]
fn prepay_is_not_pay() {
    assert_decision(&click("button", "Prepay info"), Verdict::Allow, "nothing in");
    assert_decision(&click("button", "Pay"), Verdict::Confirm, "paying");
}

#[test]
fn ambiguous_short_words_count_only_on_button_like_labels() {
    assert_decision(&click("button", "Sil"), Verdict::Confirm, "deleting");
    assert_decision(&click("button", "Silver"), Verdict::Allow, "nothing in");
    assert_decision(&click("link", "Kup"), Verdict::Confirm, "paying");
    // A list row named "Kup" is not a command.
    assert_decision(&click("row", "kup"), Verdict::Allow, "nothing in");
    // An element described by nothing is read strictly, like a button.
    assert_decision(
        &decide(json!({"action": "click", "element": {"name": "Öde"}})),
        Verdict::Confirm,
        "paying",
    );
}

#[test]
fn ambiguous_short_words_never_count_in_free_text() {
    let d = decide(
        json!({"action": "click", "element": {"role": "button", "name": "Weiter",
        "text_around": "Kup bilety, ja, sil, öde"}}),
    );
    assert_decision(&d, Verdict::Allow, "nothing around it");
}

#[test]
fn cjk_matches_inside_short_labels_only() {
    assert_decision(&click("button", "削除する"), Verdict::Confirm, "deleting");
    assert_decision(&click("button", "今すぐ購入する"), Verdict::Confirm, "paying");
    assert_decision(&click("button", "결제하기"), Verdict::Confirm, "paying");
    // A long paragraph that mentions 削除 and 購入 in running text does not trigger.
    let paragraph = "このページではアカウントの設定を変更したり削除したり購入履歴を確認したりできます";
    assert!(paragraph.chars().count() > CJK_LABEL_MAX_CHARS);
    assert_decision(&click("link", paragraph), Verdict::Allow, "nothing in");
    let d = decide(
        json!({"action": "click", "element": {"role": "button", "name": "確認", "text_around": paragraph}}),
    );
    assert_decision(&d, Verdict::Allow, "nothing around it");
}

// --- prices -----------------------------------------------------------------------------------------

#[test]
fn a_price_in_the_label_confirms() {
    for (name, amount) in [
        ("Pay €84.97", "€84.97"),
        ("Get it for 84,97 €", "84,97 €"),
        ("Upgrade — $9.99/month", "$9.99"),
        ("Renew for £12", "£12"),
        ("Продлить за 1 000 ₽", "1 000 ₽"),
        ("Abonament 49,99 zł", "49,99 zł"),
        ("Ulepsz ¥1,000", "¥1,000"),
        ("Upgrade CHF 12.50", "chf 12.50"),
        ("Uppgradera 199 kr", "199 kr"),
        ("Upgrade EUR 5", "eur 5"),
        ("Підписка 99 ₴", "99 ₴"),
        ("Abone ol ₺49", "₺49"),
        ("업그레이드 ₩10,000", "₩10,000"),
        ("Upgrade ₹499", "₹499"),
        ("アップグレード 1,000円", "1,000円"),
        ("Upgrade ＄５", "$5"),
    ] {
        let d = click("button", name);
        assert_eq!(d.decision, Verdict::Confirm, "{name}: {d:?}");
        if !d.reason.contains("paying") {
            assert!(
                d.reason.contains(&format!("carries a price ({amount})")),
                "{name}: {}",
                d.reason
            );
        }
    }
    assert_decision(
        &click("button", "Upgrade for €5"),
        Verdict::Confirm,
        "carries a price (€5)",
    );
}

#[test]
fn numbers_without_a_currency_are_not_prices() {
    assert_eq!(find_amount("page 2 of 5"), None);
    assert_eq!(find_amount("try 10 times"), None);
    assert_eq!(find_amount("10 krát"), None);
    assert_eq!(find_amount("room 101"), None);
    assert_decision(&click("link", "Page 2"), Verdict::Allow, "nothing in");
}

/// Pinned: "add to cart" is low risk, but a price in its label still confirms (any click whose label
/// carries a price asks), and so does "buy now" beside it.
#[test]
fn add_to_cart_is_allowed_unless_it_says_buy_now_or_carries_a_price() {
    assert_decision(
        &click("button", "Add to cart"),
        Verdict::Allow,
        "only adds to the cart",
    );
    assert_decision(
        &click("button", "In den Warenkorb"),
        Verdict::Allow,
        "only adds to the cart",
    );
    assert_decision(
        &click("button", "カートに入れる"),
        Verdict::Allow,
        "only adds to the cart",
    );
    assert_decision(
        &click("button", "Add to cart & buy now"),
        Verdict::Confirm,
        "'buy now'",
    );
    assert_decision(
        &click("button", "Add to cart – €19.99"),
        Verdict::Confirm,
        "price (€19.99)",
    );
}
