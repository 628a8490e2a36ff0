//! Whom a request counts against (issue 60), and tables of buckets that stay bounded.
//!
//! Every request takes one place from one bucket:
//!
//! * with a player's link (a valid token in its `Authorization` header): that player's bucket
//!   in that game ([`Asker::Player`]), wherever they connect from, so nobody else behind the
//!   same address (a reverse proxy, Discord's Activity proxy, a household) can use it up;
//! * with a spectator's link (public on every turn message): the bucket of that game's link at
//!   the client's address ([`Asker::Watcher`]), so a crowd of one spectator's requests takes
//!   nothing from the players nor from spectators elsewhere;
//! * without a link (the page and its files, the Activity's sign-in, a forged or expired
//!   token): the client's address's ([`Asker::Address`]); IPv6 addresses by their /64, which is
//!   what one client is usually given.
//!
//! The client's address is the connection's peer, unless the peer is one of the operator's
//! trusted proxies ([`Proxies`], `HEXMEROS_WEB_TRUSTED_PROXIES`): then it is the right-most
//! hop of `X-Forwarded-For` that is not itself a trusted proxy, the address the outermost
//! trusted proxy saw. A client's own `X-Forwarded-For` chooses nothing: an untrusted peer's is
//! never read, and a trusted proxy appends the real address after whatever the client wrote.
//!
//! Each bucket table ([`Table`]) holds at most its number of keys, forgetting the least
//! recently used one first, and a sweep ([`Web::forget_idle`](super::Web::forget_idle), every
//! [`SWEEP_EVERY`]) drops the buckets that are full again and gives their memory back.

use std::hash::Hash;
use std::net::{IpAddr, Ipv6Addr};
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::http::HeaderMap;
use governor::clock::DefaultClock;
use governor::nanos::Nanos;
use governor::state::StateStore;
use governor::state::keyed::ShrinkableKeyedStateStore;
use governor::{Quota, RateLimiter};
use lru::LruCache;

use crate::host::{GameId, PlayerId};

/// The most keys one bucket table holds (each about 100 bytes).
pub const KEYS_MOST: usize = 65_536;

/// How often the tables drop the buckets that are full again.
pub const SWEEP_EVERY: Duration = Duration::from_secs(60);

/// Whose bucket a request takes from (see the module's words).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Asker {
    /// A request without a (valid) link, by the client's address (an IPv6 one by its /64).
    Address(IpAddr),
    /// A player's link: the game and the player.
    Player(GameId, PlayerId),
    /// A spectator's link to a game, at the client's address (an IPv6 one by its /64).
    Watcher(GameId, IpAddr),
}

/// The address a bucket is kept for: an IPv4 address as it is, an IPv6 one by its /64 (one
/// client's usual share), an IPv4-mapped IPv6 address as its IPv4 one.
pub fn bucket_address(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => {
            let bits = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(Ipv6Addr::from(bits))
        }
        v4 => v4,
    }
}

/// A keyed rate limiter on a bounded [`Table`].
pub type Limiter<K> = RateLimiter<K, Table<K>, DefaultClock>;

/// A limiter of `quota` per key that keeps at most `most` keys.
pub fn limiter<K: Hash + Eq + Clone>(quota: Quota, most: usize) -> Limiter<K> {
    RateLimiter::new(quota, Table::new(most), DefaultClock::default())
}

/// A bucket table of at most `most` keys: past it the least recently used key is forgotten
/// (its next request starts from a full bucket). Each key holds governor's one number, the
/// bucket's theoretical arrival time.
pub struct Table<K: Hash + Eq> {
    keys: Mutex<LruCache<K, Nanos>>,
    most: NonZeroUsize,
}

impl<K: Hash + Eq> Table<K> {
    pub fn new(most: usize) -> Table<K> {
        let most = NonZeroUsize::new(most).unwrap_or(NonZeroUsize::MIN);
        Table {
            keys: Mutex::new(LruCache::sparse(most)),
            most,
        }
    }

    fn lock(&self) -> MutexGuard<'_, LruCache<K, Nanos>> {
        self.keys.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl<K: Hash + Eq + Clone> StateStore for Table<K> {
    type Key = K;

    fn measure_and_replace<T, F, E>(&self, key: &K, f: F) -> Result<T, E>
    where
        F: Fn(Option<Nanos>) -> Result<(T, Nanos), E>,
    {
        let mut keys = self.lock();
        let (out, next) = f(keys.get(key).copied())?;
        // `push` forgets the least recently used key when the table is full.
        keys.push(key.clone(), next);
        Ok(out)
    }
}

impl<K: Hash + Eq + Clone> ShrinkableKeyedStateStore<K> for Table<K> {
    fn retain_recent(&self, drop_below: Nanos) {
        self.lock().retain(|_, at| *at > drop_below);
    }

    /// The table made again at its size when it holds under a quarter of what it may: a hash
    /// table keeps its peak's room otherwise.
    fn shrink_to_fit(&self) {
        let mut keys = self.lock();
        if keys.len() >= self.most.get() / 4 {
            return;
        }
        let mut fresh = LruCache::sparse(self.most);
        // Oldest first, so the order of use is kept.
        while let Some((k, v)) = keys.pop_lru() {
            fresh.push(k, v);
        }
        *keys = fresh;
    }

    fn len(&self) -> usize {
        self.lock().len()
    }

    fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }
}

/// The operator's trusted reverse proxies (`HEXMEROS_WEB_TRUSTED_PROXIES`): addresses and
/// networks whose `X-Forwarded-For` names the client. Empty: no proxy is trusted, and every
/// request's client is its connection's peer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Proxies(Arc<[Net]>);

/// One address, or a network as `ADDRESS/BITS`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Net {
    addr: IpAddr,
    bits: u8,
}

impl Net {
    fn parse(text: &str) -> Option<Net> {
        let (addr, bits) = match text.split_once('/') {
            Some((a, b)) => (a.trim(), Some(b.trim())),
            None => (text, None),
        };
        let addr = addr.parse::<IpAddr>().ok()?.to_canonical();
        let most = if addr.is_ipv4() { 32 } else { 128 };
        let bits = match bits {
            Some(b) => b.parse::<u8>().ok().filter(|&b| b <= most)?,
            None => most,
        };
        Some(Net { addr, bits })
    }

    fn contains(&self, ip: IpAddr) -> bool {
        let masked = |v: u128, width: u8| match self.bits {
            0 => 0,
            b => v >> (width - b),
        };
        match (self.addr, ip.to_canonical()) {
            (IpAddr::V4(n), IpAddr::V4(i)) => {
                masked(u32::from(n).into(), 32) == masked(u32::from(i).into(), 32)
            }
            (IpAddr::V6(n), IpAddr::V6(i)) => masked(n.into(), 128) == masked(i.into(), 128),
            _ => false,
        }
    }
}

impl Proxies {
    /// A comma-separated list of addresses and networks (`127.0.0.1, 10.0.0.0/8, fd00::/8`);
    /// empty: none. The refusal names the entry that is neither.
    pub fn parse(text: &str) -> Result<Proxies, String> {
        let mut nets = Vec::new();
        for entry in text.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            nets.push(Net::parse(entry).ok_or_else(|| {
                format!(
                    "{entry:?} is not an address or a network (ADDRESS/BITS, as 10.0.0.0/8 or \
                     fd00::/8)"
                )
            })?);
        }
        Ok(Proxies(nets.into()))
    }

    /// Whether `ip` is one of the trusted proxies.
    pub fn trusts(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|n| n.contains(ip))
    }

    /// The client's address of a request from `peer` with `headers` (see the module's words).
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let peer = peer.to_canonical();
        if !self.trusts(peer) {
            return peer;
        }
        // Several header lines are one list, in order.
        let hops: Vec<&str> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .collect();
        let mut client = peer;
        for hop in hops.into_iter().rev() {
            // A hop that is no address: what the last trusted proxy saw cannot be told, so the
            // request counts as that proxy's own.
            let Some(ip) = hop_address(hop) else {
                break;
            };
            client = ip;
            if !self.trusts(ip) {
                break;
            }
        }
        client
    }
}

/// One `X-Forwarded-For` hop as an address: `203.0.113.7`, `203.0.113.7:4711`, `2001:db8::1`
/// or `[2001:db8::1]:4711`.
fn hop_address(hop: &str) -> Option<IpAddr> {
    let ip = hop
        .parse::<IpAddr>()
        .ok()
        .or_else(|| hop.parse::<std::net::SocketAddr>().ok().map(|s| s.ip()))
        .or_else(|| {
            hop.strip_prefix('[')
                .and_then(|h| h.strip_suffix(']'))
                .and_then(|h| h.parse().ok())
        })?;
    Some(ip.to_canonical())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::num::NonZeroU32;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn forwarded(values: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in values {
            h.append("x-forwarded-for", v.parse().unwrap());
        }
        h
    }

    #[test]
    fn proxies_are_addresses_and_networks_and_a_bad_entry_is_named() {
        let p = Proxies::parse(" 127.0.0.1, 10.0.0.0/8 ,fd00::/8,, ::ffff:192.0.2.1").unwrap();
        for trusted in [
            "127.0.0.1",
            "10.200.3.4",
            "fd12::1",
            "192.0.2.1",
            "::ffff:10.1.1.1",
        ] {
            assert!(p.trusts(ip(trusted)), "{trusted}");
        }
        for not in ["127.0.0.2", "11.0.0.1", "fe80::1", "::1", "192.0.2.2"] {
            assert!(!p.trusts(ip(not)), "{not}");
        }
        assert_eq!(Proxies::parse("").unwrap(), Proxies::default());
        assert!(Proxies::parse("0.0.0.0/0").unwrap().trusts(ip("8.8.8.8")));
        for bad in ["10.0.0.0/33", "proxy.example.org", "10.0.0.1/x", "::/129"] {
            let err = Proxies::parse(&format!("127.0.0.1,{bad}")).unwrap_err();
            assert!(err.contains(&format!("{bad:?}")), "{err}");
        }
    }

    #[test]
    fn the_client_is_the_right_most_untrusted_hop_and_only_behind_a_trusted_proxy() {
        let p = Proxies::parse("127.0.0.1, 10.0.0.0/8").unwrap();
        let peer = ip("127.0.0.1");
        // The client wrote a hop of its own; the proxy appended the real one.
        let h = forwarded(&["198.51.100.9, 203.0.113.7"]);
        assert_eq!(p.client(peer, &h), ip("203.0.113.7"));
        // Two trusted proxies in a row, on two header lines, ports and brackets.
        let h = forwarded(&["203.0.113.7:4711", "10.1.2.3"]);
        assert_eq!(p.client(peer, &h), ip("203.0.113.7"));
        let h = forwarded(&["[2001:db8::1]:80"]);
        assert_eq!(p.client(peer, &h), ip("2001:db8::1"));
        // No header, or a hop that is no address: the proxy's own.
        assert_eq!(p.client(peer, &HeaderMap::new()), peer);
        assert_eq!(p.client(peer, &forwarded(&["unknown"])), peer);
        // Every hop trusted: the left-most.
        assert_eq!(p.client(peer, &forwarded(&["10.9.9.9"])), ip("10.9.9.9"));
        // An untrusted peer's header is never read.
        let stranger = ip("192.0.2.50");
        assert_eq!(p.client(stranger, &forwarded(&["203.0.113.7"])), stranger);
        assert_eq!(
            Proxies::default().client(peer, &forwarded(&["203.0.113.7"])),
            peer
        );
    }

    #[test]
    fn an_ipv6_client_is_counted_by_its_64() {
        assert_eq!(
            bucket_address(ip("2001:db8:1:2:aaaa::1")),
            ip("2001:db8:1:2::")
        );
        assert_eq!(bucket_address(ip("::ffff:192.0.2.1")), ip("192.0.2.1"));
        assert_eq!(bucket_address(ip("192.0.2.1")), ip("192.0.2.1"));
    }

    #[test]
    fn a_table_holds_its_most_keys_and_forgets_the_least_recent() {
        let quota = Quota::per_minute(NonZeroU32::MIN);
        let l: Limiter<u32> = limiter(quota, 3);
        for k in 0..3 {
            assert!(l.check_key(&k).is_ok());
        }
        assert!(l.check_key(&0).is_err(), "key 0's one place is taken");
        // A fourth key forgets the least recently used one (1: 0 was just asked about).
        assert!(l.check_key(&3).is_ok());
        assert_eq!(l.len(), 3);
        assert!(l.check_key(&0).is_err(), "key 0 is remembered");
        assert!(
            l.check_key(&1).is_ok(),
            "key 1 was forgotten: a full bucket"
        );
    }

    #[test]
    fn full_buckets_are_swept_and_the_table_shrinks() {
        // A bucket of one place, full again a millisecond later.
        let quota = Quota::per_second(NonZeroU32::new(1000).unwrap());
        let l: Limiter<u32> = limiter(quota, KEYS_MOST);
        for k in 0..10_000 {
            assert!(l.check_key(&k).is_ok());
        }
        assert_eq!(l.len(), 10_000);
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while !l.is_empty() {
            assert!(std::time::Instant::now() < deadline, "never swept");
            l.retain_recent();
            l.shrink_to_fit();
            std::thread::yield_now();
        }
        // A key asked about again starts afresh.
        assert!(l.check_key(&7).is_ok());
        assert_eq!(l.len(), 1);
    }
}
