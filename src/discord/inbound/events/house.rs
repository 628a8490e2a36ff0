//! The house rules menu, one private message updated in place (as the move picker is): a select
//! of the game's rules with the value in force, then a select of one rule's values (the one in
//! force marked), and picking a value proposes it as `/hexmeros vote house-rule` does, so its
//! ballot opens in the thread. What is listed comes from the host (`GameState::house_menu`, the
//! game's rules from `games::house_menu` and the host's timers); only a seated player of a game
//! still in its House Rules phase gets a menu or proposes through one.

use poise::serenity_prelude as serenity;
use serde_json::Value;
use serenity::{
    CreateActionRow, CreateButton, CreateSelectMenu, CreateSelectMenuKind, CreateSelectMenuOption,
};

use hexmeros::games::house_menu::{self, Allowed, HouseRule};
use hexmeros::host::{Command, GameId, GameState, HostError, Motion, PlayerId, Refused, Status};

use super::{Click, Reply, non_empty};
use crate::discord::ids::{Action, ComponentId};
use crate::discord::names;
use crate::discord::{Data, Error};

/// Discord's limit on a select option's label, value and description.
const OPTION_MAX: usize = 100;

/// `text` cut to Discord's limit on an option's text.
fn fit(text: &str) -> String {
    if text.chars().count() <= OPTION_MAX {
        return text.to_string();
    }
    let mut s: String = text.chars().take(OPTION_MAX - 1).collect();
    s.push('…');
    s
}

/// The game as `me` may use its house rules menu: seated, and the House Rules phase still on.
async fn house_phase(data: &Data, game: GameId, me: PlayerId) -> Result<GameState, Error> {
    let state = data.host.state(game).await?;
    if state.seat_of(me).is_none() {
        return Err(HostError::from(Refused::NotSeated).into());
    }
    match state.status() {
        Status::HouseRules => Ok(state),
        Status::Paused => Err(HostError::from(Refused::Paused).into()),
        Status::Finished | Status::Aborted => Err(HostError::from(Refused::GameOver).into()),
        Status::Playing => Err(HostError::from(Refused::HouseRulesClosed).into()),
    }
}

fn id(state: &GameState, action: Action) -> String {
    ComponentId::new(state.id(), state.version(), action).encode()
}

fn select(
    custom_id: String,
    placeholder: &str,
    options: Vec<CreateSelectMenuOption>,
) -> CreateActionRow {
    CreateActionRow::SelectMenu(
        CreateSelectMenu::new(custom_id, CreateSelectMenuKind::String { options })
            .placeholder(placeholder),
    )
}

/// A rule's line in the first menu: `Rule name · now: X`.
pub fn rule_label(rule: &HouseRule, now: &Value) -> String {
    format!("{} · now: {}", rule.name, house_menu::value_text(now))
}

/// Step 1: the game's rules, each with its value in force. The slash command's answer, and
/// the "Other rule" button's.
pub async fn rules_menu(data: &Data, game: GameId, me: PlayerId) -> Result<Reply, Error> {
    let state = house_phase(data, game, me).await?;
    let options = state
        .house_menu()
        .iter()
        .map(|(r, now)| {
            CreateSelectMenuOption::new(fit(&rule_label(r, now)), r.key).description(fit(r.about))
        })
        .collect();
    let mut r = Reply::text(format!(
        "**House rules** of game #{game} ({}): pick a rule to propose a new value for it; \
         its ballot opens in the thread. House rules are voted only before the first Token pass.",
        state.kind().name()
    ));
    r.components = vec![select(id(&state, Action::HouseRule), "rule", options)];
    r.edit = true;
    Ok(r)
}

/// The "Other rule" button back to step 1.
pub(super) async fn rules(c: &Click<'_>) -> Result<Reply, Error> {
    rules_menu(c.data, c.game, c.me).await
}

/// A rule was picked from step 1: step 2, its values.
pub(super) async fn picked_rule(c: &Click<'_>) -> Result<Reply, Error> {
    let key = c.picked("rule")?;
    let state = house_phase(c.data, c.game, c.me).await?;
    let menu = state.house_menu();
    let Some(index) = menu.iter().position(|(r, _)| r.key == key) else {
        return Err(not_on_menu());
    };
    let (rule, now) = &menu[index];
    let mut text = format!(
        "**{}**: {}\nallowed: {}; now: **{}**",
        rule.name,
        rule.about,
        rule.allowed.describe(),
        house_menu::value_text(now)
    );
    let mut r = Reply::text(String::new());
    r.edit = true;
    let other = CreateButton::new(id(&state, Action::HouseRules))
        .label("Other rule")
        .style(serenity::ButtonStyle::Secondary);
    if let Allowed::Json { example } = rule.allowed {
        text.push_str(&format!(
            "\nno menu offers these: propose one with `/hexmeros vote house-rule {} <JSON>`, \
             e.g. `{example}`",
            rule.key
        ));
    } else {
        text.push_str("\npick a value to propose it");
        let options = rule
            .allowed
            .offered()
            .iter()
            .map(|v| {
                let mut label = house_menu::value_text(v);
                if v == now {
                    label.push_str(" · now");
                }
                CreateSelectMenuOption::new(fit(&label), v.to_string()).default_selection(v == now)
            })
            .collect();
        let index = u8::try_from(index).map_err(|_| not_on_menu())?;
        r.components.push(select(
            id(&state, Action::HouseValue { rule: index }),
            "value",
            options,
        ));
    }
    r.components.push(CreateActionRow::Buttons(vec![other]));
    r.content = text;
    Ok(r)
}

fn not_on_menu() -> Error {
    crate::discord::reply::refused("that is not on this game's house rules menu")
}

/// A value was picked from step 2 for rule number `rule`: propose it.
pub(super) async fn picked_value(c: &Click<'_>, rule: u8) -> Result<Reply, Error> {
    let picked = c.picked("value")?;
    let state = house_phase(c.data, c.game, c.me).await?;
    let menu = state.house_menu();
    let (rule, now) = menu.get(usize::from(rule)).ok_or_else(not_on_menu)?;
    let value: Value = serde_json::from_str(&picked).map_err(|_| not_on_menu())?;
    if !rule.allowed.offered().contains(&value) {
        return Err(not_on_menu());
    }
    let words = house_menu::value_text(&value);
    if value == *now {
        return Err(crate::discord::reply::refused(format!(
            "{} is already {words}",
            rule.name
        )));
    }
    let motion = Motion::HouseRule {
        key: rule.key.to_string(),
        value,
    };
    let what = names::with_names(c.data, &state.describe(&motion)).await;
    let lines = c.run(Command::Propose(motion)).await?;
    let mut r = Reply::text(non_empty(
        lines,
        &format!(
            "you proposed {} = {words} ({what}); your vote counts as yes, the ballot is in the \
             thread",
            rule.name
        ),
    ));
    r.edit = true;
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_rule_reads_with_its_value_in_force() {
        let archer =
            house_menu::find(hexmeros::games::GameKind::HexiMeros, "archer").expect("listed");
        assert_eq!(
            rule_label(archer, &json!("fly_over")),
            "Archer · now: fly_over"
        );
    }

    #[test]
    fn long_texts_fit_an_option() {
        let long = "x".repeat(150);
        assert_eq!(fit(&long).chars().count(), OPTION_MAX);
        assert_eq!(fit("short"), "short");
    }
}
