//! Stateless component ids: `game:action:version[:arg]`. Everything a button or select menu
//! needs is in its id, so the component handler keeps no memory between clicks and a button
//! still works after the bot restarts; the version lets a button from an earlier turn be refused.

use hexmeros::host::GameId;

/// What a component does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Open the piece picker (turn message).
    Pick,
    /// A piece was picked from a select menu: show its destinations.
    From,
    /// A destination was picked from a select menu: stage that move.
    To,
    /// Pass the Token with the staged move.
    Pass,
    /// Take the staged move back.
    Back,
    /// Offer the Check declarations the staged move can carry.
    Checks,
    /// Add a Check declaration on the seat in `arg`.
    Check,
    /// Answer the challenge window: `arg` is `y` (declare Check upon the mover) or `n`.
    Challenge,
    /// Vote on a motion: `arg` is `<motion>-y` or `<motion>-n`.
    Vote,
    /// Show the board from the presser's side, privately.
    Board,
    /// Propose what to do about a stalled Token holder: `arg` is
    /// `<skip|expel|bot>-<seat>-<turn>` (turn: the number of record lines when the turn began).
    Stall,
}

impl Action {
    fn key(self) -> &'static str {
        match self {
            Action::Pick => "pick",
            Action::From => "from",
            Action::To => "to",
            Action::Pass => "pass",
            Action::Back => "back",
            Action::Checks => "checks",
            Action::Check => "check",
            Action::Challenge => "chal",
            Action::Vote => "vote",
            Action::Board => "board",
            Action::Stall => "stall",
        }
    }

    fn from_key(key: &str) -> Option<Action> {
        Some(match key {
            "pick" => Action::Pick,
            "from" => Action::From,
            "to" => Action::To,
            "pass" => Action::Pass,
            "back" => Action::Back,
            "checks" => Action::Checks,
            "check" => Action::Check,
            "chal" => Action::Challenge,
            "vote" => Action::Vote,
            "board" => Action::Board,
            "stall" => Action::Stall,
            _ => return None,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CustomId {
    pub game: GameId,
    pub action: Action,
    pub version: u64,
    pub arg: Option<String>,
}

impl CustomId {
    pub fn new(game: GameId, action: Action, version: u64) -> CustomId {
        CustomId {
            game,
            action,
            version,
            arg: None,
        }
    }

    pub fn arg(mut self, arg: impl Into<String>) -> CustomId {
        self.arg = Some(arg.into());
        self
    }

    /// Parse an id; `None` for anything this bot did not make.
    pub fn parse(s: &str) -> Option<CustomId> {
        let mut parts = s.splitn(4, ':');
        let game = parts.next()?.parse().ok()?;
        let action = Action::from_key(parts.next()?)?;
        let version = parts.next()?.parse().ok()?;
        let arg = parts.next().map(str::to_string);
        Some(CustomId {
            game,
            action,
            version,
            arg,
        })
    }
}

impl std::fmt::Display for CustomId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.game, self.action.key(), self.version)?;
        if let Some(a) = &self.arg {
            write!(f, ":{a}")?;
        }
        Ok(())
    }
}

/// The piece (or reserve) a move text starts from: `Q4` of `Q4xQ8=Regent`, `S@` of `S@g2`,
/// `0.a2` of `0.a2-0.a3`. Pickers group a game's legal moves by it.
pub fn origin(mv: &str) -> &str {
    if let Some(i) = mv.find('@') {
        return &mv[..=i];
    }
    let end = mv.find(['-', 'x', '*']).unwrap_or(mv.len());
    &mv[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_reject_foreign_ids() {
        let id = CustomId::new(12, Action::To, 7).arg("0.a2-0.a3");
        let text = id.to_string();
        assert_eq!(text, "12:to:7:0.a2-0.a3");
        assert_eq!(CustomId::parse(&text), Some(id));
        assert_eq!(
            CustomId::parse("3:pass:9"),
            Some(CustomId::new(3, Action::Pass, 9))
        );
        assert_eq!(
            CustomId::parse("3:stall:9:skip-0-4"),
            Some(CustomId::new(3, Action::Stall, 9).arg("skip-0-4"))
        );
        assert_eq!(CustomId::parse("3:fly:9"), None);
        assert_eq!(CustomId::parse("x:pass:9"), None);
        assert_eq!(CustomId::parse("3:pass"), None);
    }

    #[test]
    fn origins_of_every_notation() {
        assert_eq!(origin("Q4-Q8"), "Q4");
        assert_eq!(origin("K2xH3=Regent"), "K2");
        assert_eq!(origin("S@g2"), "S@");
        assert_eq!(origin("0.a2-0.a3"), "0.a2");
        assert_eq!(origin("d4xf6xh8"), "d4");
        assert_eq!(origin("J8*J12"), "J8");
    }
}
