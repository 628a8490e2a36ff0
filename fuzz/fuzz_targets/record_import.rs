//! Arbitrary text as a game record (`hexmeros import`, the replay GIF): parsing and replaying
//! never panic, and a record that replays, written back with its canonical lines, replays to
//! the same position.
#![no_main]

use hexmeros::games::record::{self, GameRecord};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(rec) = GameRecord::parse(text) else {
        return;
    };
    let _ = rec.header("timers");
    let Ok((game, played)) = rec.replay() else {
        return;
    };
    if let Some(o) = game.outcome() {
        let _ = record::outcome_text(&game, &o);
    }
    let lines: Vec<String> = played
        .iter()
        .zip(&rec.lines)
        .map(|(canonical, line)| canonical.clone().unwrap_or_else(|| line.clone()))
        .collect();
    let written = record::write(
        rec.kind,
        game.seat_count(),
        &rec.house,
        &rec.headers,
        &lines,
        None,
    );
    let again = match GameRecord::parse(&written) {
        Ok(again) => again,
        Err(e) => panic!("written record does not parse: {e}\n{written}"),
    };
    match again.replay() {
        Ok((same, _)) => assert_eq!(same.to_json(), game.to_json(), "{written}"),
        Err(e) => panic!("written record does not replay: {e}\n{written}"),
    }
});
