//! Cached cards in a compact binary form. A cached pool holds 100,000
//! cards with ten spans each; as JSON they were most of the time a one-file
//! rebuild spent reading the cache. Numbers are LEB128 varints, strings
//! and lists are length-prefixed, enums are one byte; any malformed input
//! decodes to `None` (the cache is then ignored), never to a panic.

use crate::codec::{Reader, Writer};
use crate::index::{read_errata, write_errata};
use crate::load::{CardSpans, LoadedCard};
use crate::model::CardSource;
use crate::words::{CardKind, Element, Id};
use crate::yaml::TextStyle;

/// Appends `cards` to `out`.
pub(crate) fn encode(cards: &[LoadedCard], out: &mut Vec<u8>) {
    let mut w = Writer(out);
    w.number(cards.len());
    for loaded in cards {
        let (card, spans) = (&loaded.card, &loaded.spans);
        w.number(loaded.index);
        w.text(&card.id.0);
        w.text(&card.name);
        w.choice(&CardKind::ALL, &card.kind);
        // No STAR is 0, which no STAR is (they run from 1).
        w.0.push(card.stars.unwrap_or(0));
        w.list(&card.elements, |w, e| w.choice(&Element::ALL, e));
        w.list(&card.types, |w, t| w.text(&t.0));
        w.optional_text(card.category.as_ref().map(|c| c.0.as_str()));
        w.number(card.copies.map_or(0, |c| usize::from(c) + 1));
        w.optional_text(card.effect.as_deref());
        w.optional_text(card.flavor.as_deref());
        write_errata(&mut w, &card.errata);
        w.optional_text(card.art.as_deref());
        for span in [&spans.id, &spans.id_key, &spans.name, &spans.copies] {
            w.span(span);
        }
        for list in [&spans.elements, &spans.types] {
            w.number(list.len());
            list.iter().for_each(|span| w.span(span));
        }
        w.span(&spans.effect);
        w.span(&spans.art);
        for span in [
            &spans.kind,
            &spans.stars_entry,
            &spans.elements_entry,
            &spans.types_entry,
        ] {
            w.span(span);
        }
        w.0.push(match spans.effect_style {
            TextStyle::Plain => 0,
            TextStyle::SingleQuoted => 1,
            TextStyle::DoubleQuoted => 2,
            TextStyle::Block => 3,
        });
    }
}

/// The cards [`encode`] wrote, if `bytes` holds exactly that.
pub(crate) fn decode(bytes: &[u8]) -> Option<Vec<LoadedCard>> {
    let mut r = Reader(bytes);
    let count = r.number()?;
    // Every card takes well over one byte: a bound against hostile counts.
    let mut cards = Vec::with_capacity(count.min(bytes.len()));
    for _ in 0..count {
        let index = r.number()?;
        let id = Id(r.text()?);
        let name = r.text()?;
        let kind = r.choice(&CardKind::ALL)?;
        let stars = Some(r.byte()?).filter(|s| *s != 0);
        let elements = r.list(|r| r.choice(&Element::ALL))?;
        let types = r.list(|r| r.text().map(Id))?;
        let category = r.optional_text()?.map(Id);
        let copies = match r.number()? {
            0 => None,
            n => Some(u8::try_from(n - 1).ok()?),
        };
        let effect = r.optional_text()?;
        let flavor = r.optional_text()?;
        let errata = read_errata(&mut r)?;
        let art = r.optional_text()?;
        let [id_span, id_key, name_span, copies_span] =
            [r.span()?, r.span()?, r.span()?, r.span()?];
        let element_spans = r.list(Reader::span)?;
        let type_spans = r.list(Reader::span)?;
        let effect_span = r.span()?;
        let art_span = r.span()?;
        let [kind_span, stars_entry, elements_entry, types_entry] =
            [r.span()?, r.span()?, r.span()?, r.span()?];
        let effect_style = match r.byte()? {
            0 => TextStyle::Plain,
            1 => TextStyle::SingleQuoted,
            2 => TextStyle::DoubleQuoted,
            3 => TextStyle::Block,
            _ => return None,
        };
        cards.push(LoadedCard {
            index,
            card: CardSource {
                id,
                name,
                kind,
                stars,
                elements,
                types,
                category,
                copies,
                effect,
                flavor,
                errata,
                art,
            },
            spans: CardSpans {
                id: id_span,
                id_key,
                name: name_span,
                copies: copies_span,
                elements: element_spans,
                types: type_spans,
                effect: effect_span,
                effect_style,
                art: art_span,
                kind: kind_span,
                stars_entry,
                elements_entry,
                types_entry,
            },
            // Parsed again from the text when needed.
            effect: None,
            // Looked for anew by every build.
            art: None,
        });
    }
    r.0.is_empty().then_some(cards)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Errata;

    #[test]
    fn cards_come_back_as_they_went_in_and_damage_is_refused() {
        let pool = crate::pool::Pool::builtin();
        let mut diagnostics = Vec::new();
        let mut cards = Vec::new();
        for file in &pool.sets {
            let set = crate::load::load_set(file, &mut diagnostics).expect("a built-in set");
            cards.extend(set.cards);
        }
        for card in &mut cards {
            card.effect = None;
        }
        cards[0].card.copies = Some(255);
        cards[1].card.errata = vec![
            Errata {
                until: "1.0".into(),
                effect: "Play: Gain 1 RP.".into(),
                note: None,
            },
            Errata {
                until: "1.1".into(),
                effect: "Play: Gain 2 RP.".into(),
                note: Some("too strong".into()),
            },
        ];
        let mut bytes = Vec::new();
        encode(&cards, &mut bytes);
        let decoded = decode(&bytes).expect("decodes");
        assert_eq!(format!("{decoded:?}"), format!("{cards:?}"));
        crate::codec::assert_refuses_damage(&bytes, decode);
    }
}
