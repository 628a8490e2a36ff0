//! Arbitrary text as a button's `custom_id`: decoding never panics, and every id that decodes
//! is exactly the text `encode` makes for it. Ids built from the bytes round-trip too.
#![no_main]

use hexmeros::games::Seat;
use libfuzzer_sys::fuzz_target;

#[allow(dead_code)]
#[path = "../../src/discord/ids.rs"]
mod ids;

use ids::{Action, ComponentId, Proposal};

/// An id made from the bytes (`None` when there are too few).
fn built(data: &[u8]) -> Option<ComponentId> {
    let (head, _) = data.split_first_chunk::<34>()?;
    let word = |i: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&head[i..i + 8]);
        u64::from_le_bytes(b)
    };
    let (game, version, number) = (word(0) as i64, word(8), word(16));
    let (small, pick) = (head[24], head[25]);
    let yes = head[26] % 2 == 1;
    let proposal = [Proposal::Skip, Proposal::Expel, Proposal::Bot][usize::from(head[27] % 3)];
    let action = match pick % 14 {
        0 => Action::Pick,
        1 => Action::From { menu: small },
        2 => Action::To { menu: small },
        3 => Action::Pass,
        4 => Action::Back,
        5 => Action::Checks,
        6 => Action::Check { seat: Seat(small) },
        7 => Action::Challenge { declare: yes },
        8 => Action::Vote {
            motion: number,
            yes,
        },
        9 => Action::Board,
        10 => Action::Claim,
        11 => Action::LobbyJoin,
        12 => Action::LobbyDecline,
        _ => Action::Stall {
            proposal,
            seat: Seat(small),
            turn: number as usize,
        },
    };
    Some(ComponentId::new(game, version, action))
}

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data)
        && let Ok(id) = ComponentId::decode(text)
    {
        assert_eq!(id.encode(), text, "only the encoded spelling decodes");
        assert_eq!(ComponentId::decode(&id.encode()), Ok(id));
    }
    if let Some(id) = built(data) {
        let text = id.encode();
        assert_eq!(ComponentId::decode(&text), Ok(id), "{text}");
        // Discord's limit on a custom_id.
        assert!(text.len() <= 100, "{text} is too long");
    }
});
