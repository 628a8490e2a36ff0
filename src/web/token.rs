//! The web board's signed links: a token names one game, the player it lets act (or nobody: a
//! spectator's), and when it expires, sealed with HMAC-SHA256 under the database's own key
//! (`Store::secret`). No password, no account: whoever holds the link is that player on that
//! game's board until it expires or the player leaves the game (the server checks the seat on
//! every request, so leaving or being replaced ends the link at once).
//!
//! ```
//! use hexmeros::web::token::{Keys, Claims, TokenError};
//!
//! let keys = Keys::new(b"a key of the database's own, 32 bytes or more......");
//! let t = keys.sign(&Claims { game: 7, player: Some(42), expires: 1_000 });
//! assert_eq!(keys.verify(&t, 999)?, Claims { game: 7, player: Some(42), expires: 1_000 });
//! assert_eq!(keys.verify(&t, 1_000), Err(TokenError::Expired));
//! # Ok::<(), TokenError>(())
//! ```

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::host::{GameId, Millis, PlayerId};

type HmacSha256 = Hmac<Sha256>;

/// What a token lets its holder do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claims {
    pub game: GameId,
    /// The player it acts for; `None`: a spectator's link, read-only.
    pub player: Option<PlayerId>,
    /// Unix milliseconds; the token is refused from then on.
    pub expires: Millis,
}

/// Why a token was refused. The messages say what to do and never echo the token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    #[error("this board link is not one the bot made; ask for a new one with My board")]
    Forged,
    #[error("this board link has expired; ask for a new one with My board")]
    Expired,
}

/// Seals that separate a board link from anything else the key might one day sign.
const PURPOSE: &[u8] = b"hexmeros web board link v1";

/// The game, player (0: nobody) and expiry, 8 bytes each, big-endian.
const BODY: usize = 24;

/// The signing key.
#[derive(Clone)]
pub struct Keys {
    mac: HmacSha256,
}

impl std::fmt::Debug for Keys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Keys(…)")
    }
}

impl Keys {
    /// Keys from the secret's bytes (any length; the database's is 32 random bytes).
    pub fn new(secret: &[u8]) -> Keys {
        // HMAC takes a key of any length: this cannot fail.
        let mac = <HmacSha256 as Mac>::new_from_slice(secret)
            .unwrap_or_else(|_| unreachable!("HMAC accepts keys of every length"));
        Keys { mac }
    }

    fn mac_of(&self, body: &[u8]) -> HmacSha256 {
        let mut mac = self.mac.clone();
        mac.update(PURPOSE);
        mac.update(body);
        mac
    }

    /// The token for `claims`: URL-safe text of 75 characters.
    pub fn sign(&self, claims: &Claims) -> String {
        let mut bytes = Vec::with_capacity(BODY + 32);
        bytes.extend_from_slice(&claims.game.to_be_bytes());
        bytes.extend_from_slice(&claims.player.unwrap_or(0).to_be_bytes());
        bytes.extend_from_slice(&claims.expires.to_be_bytes());
        let tag = self.mac_of(&bytes).finalize().into_bytes();
        bytes.extend_from_slice(&tag);
        URL_SAFE_NO_PAD.encode(bytes)
    }

    /// The claims of `token` if this key sealed it (compared in constant time) and it has not
    /// expired at `now`.
    pub fn verify(&self, token: &str, now: Millis) -> Result<Claims, TokenError> {
        let bytes = URL_SAFE_NO_PAD
            .decode(token.trim())
            .map_err(|_| TokenError::Forged)?;
        if bytes.len() != BODY + 32 {
            return Err(TokenError::Forged);
        }
        let (body, tag) = bytes.split_at(BODY);
        self.mac_of(body)
            .verify_slice(tag)
            .map_err(|_| TokenError::Forged)?;
        let word = |i: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&body[i * 8..i * 8 + 8]);
            b
        };
        let claims = Claims {
            game: i64::from_be_bytes(word(0)),
            player: Some(i64::from_be_bytes(word(1))).filter(|&p| p != 0),
            expires: i64::from_be_bytes(word(2)),
        };
        if now >= claims.expires {
            return Err(TokenError::Expired);
        }
        Ok(claims)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys() -> Keys {
        Keys::new(b"0123456789abcdef0123456789abcdef")
    }

    #[test]
    fn a_token_carries_its_claims_until_it_expires() {
        let c = Claims {
            game: 12,
            player: Some(-5),
            expires: 10_000,
        };
        let t = keys().sign(&c);
        assert_eq!(t.len(), 75);
        assert_eq!(keys().verify(&t, 9_999), Ok(c));
        assert_eq!(keys().verify(&t, 10_000), Err(TokenError::Expired));
        let watch = Claims { player: None, ..c };
        assert_eq!(keys().verify(&keys().sign(&watch), 0), Ok(watch));
    }

    #[test]
    fn a_changed_byte_another_key_or_garbage_is_forged() {
        let c = Claims {
            game: 12,
            player: Some(7),
            expires: 10_000,
        };
        let t = keys().sign(&c);
        let mut bytes = URL_SAFE_NO_PAD.decode(&t).expect("ours");
        for i in [0, 8, 15, 16, 23, 24, 55] {
            let mut b = bytes.clone();
            b[i] ^= 1;
            assert_eq!(
                keys().verify(&URL_SAFE_NO_PAD.encode(&b), 0),
                Err(TokenError::Forged),
                "byte {i}"
            );
        }
        bytes.pop();
        assert_eq!(
            keys().verify(&URL_SAFE_NO_PAD.encode(&bytes), 0),
            Err(TokenError::Forged)
        );
        let other = Keys::new(b"another key entirely, 32 bytes..");
        assert_eq!(other.verify(&t, 0), Err(TokenError::Forged));
        for junk in ["", "x", "!!!!", &"A".repeat(75)] {
            assert_eq!(keys().verify(junk, 0), Err(TokenError::Forged), "{junk:?}");
        }
        assert!(!TokenError::Forged.to_string().contains(&t));
    }
}
