//! Ripple time: seconds since the XRP Ledger epoch (2000-01-01T00:00:00Z), and the ways
//! rippled prints it.

/// Seconds between the Unix epoch and the XRP Ledger epoch (2000-01-01T00:00:00Z).
pub const RIPPLE_EPOCH_OFFSET_SECS: u64 = 946_684_800;

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// Now, in seconds since the XRP Ledger epoch.
pub fn ripple_now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
        .saturating_sub(RIPPLE_EPOCH_OFFSET_SECS)
}

/// A ripple-epoch time broken into its UTC calendar parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Civil {
    /// Year.
    pub year: i64,
    /// Month, 1..=12.
    pub month: u32,
    /// Day of the month, 1..=31.
    pub day: u32,
    /// Hour, 0..=23.
    pub hour: u64,
    /// Minute, 0..=59.
    pub minute: u64,
    /// Second, 0..=59.
    pub second: u64,
}

impl Civil {
    /// The calendar parts of `ripple_secs` (proleptic Gregorian, Howard Hinnant's
    /// `civil_from_days`).
    pub fn of(ripple_secs: u64) -> Civil {
        let unix = ripple_secs + RIPPLE_EPOCH_OFFSET_SECS;
        let (year, month, day) = civil_from_days((unix / 86_400) as i64);
        let s = unix % 86_400;
        Civil {
            year,
            month,
            day,
            hour: s / 3600,
            minute: s / 60 % 60,
            second: s % 60,
        }
    }

    fn month_name(&self) -> &'static str {
        MONTHS[(self.month as usize + 11) % 12]
    }
}

/// Days since 1970-01-01 to (year, month 1..=12, day 1..=31).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
/// `days_from_civil`).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = i64::from((m + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// A close time as a client writes it: seconds since the ripple epoch (digits), or an
/// ISO 8601 / RFC 3339 UTC time `YYYY-MM-DDTHH:MM:SS` with optional fractional seconds
/// (dropped) and `Z` or a `+HH:MM` / `-HH:MM` offset. None when it is neither, or falls
/// outside 2000-01-01T00:00:00Z ..= the last u32 second.
pub fn parse_close_time(text: &str) -> Option<u32> {
    let t = text.trim();
    if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
        return t.parse().ok();
    }
    let b = t.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        let s = t.get(r)?;
        s.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| s.parse().ok())?
    };
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hour, minute, second) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return None;
    }
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let offset = zone_offset_secs(&t[19..])?;
    let days = days_from_civil(i64::from(year), month, day);
    let unix = days * 86_400 + i64::from(hour * 3600 + minute * 60 + second) - offset;
    u32::try_from(unix - RIPPLE_EPOCH_OFFSET_SECS as i64).ok()
}

fn days_in_month(year: u32, month: u32) -> u32 {
    let leap = year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The zone suffix after the seconds: optional `.fraction`, then `Z` or `±HH:MM`.
fn zone_offset_secs(rest: &str) -> Option<i64> {
    let rest = match rest.strip_prefix('.') {
        Some(r) => r.trim_start_matches(|c: char| c.is_ascii_digit()),
        None => rest,
    };
    if rest.eq_ignore_ascii_case("z") {
        return Some(0);
    }
    let (sign, hm) = match rest.as_bytes().first()? {
        b'+' => (1, &rest[1..]),
        b'-' => (-1, &rest[1..]),
        _ => return None,
    };
    let (h, m) = hm.split_once(':')?;
    if h.len() != 2 || m.len() != 2 {
        return None;
    }
    let (h, m): (i64, i64) = (h.parse().ok()?, m.parse().ok()?);
    (h <= 23 && m <= 59).then_some(sign * (h * 3600 + m * 60))
}

/// `2024-11-01T23:59:01Z` (rippled `to_string_iso`).
pub fn iso(ripple_secs: u32) -> String {
    let c = Civil::of(u64::from(ripple_secs));
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        c.year, c.month, c.day, c.hour, c.minute, c.second
    )
}

/// `2024-Nov-01 23:59:01.000000000 UTC` (rippled `to_string` of a NetClock time point).
pub fn human(ripple_secs: u32) -> String {
    let c = Civil::of(u64::from(ripple_secs));
    format!(
        "{:04}-{}-{:02} {:02}:{:02}:{:02}.000000000 UTC",
        c.year,
        c.month_name(),
        c.day,
        c.hour,
        c.minute,
        c.second
    )
}

/// `2024-Nov-01 23:59:01.123456 UTC` (server_info `time`: microseconds).
pub fn human_micros(ripple_secs: u64, micros: u32) -> String {
    let c = Civil::of(ripple_secs);
    format!(
        "{:04}-{}-{:02} {:02}:{:02}:{:02}.{micros:06} UTC",
        c.year,
        c.month_name(),
        c.day,
        c.hour,
        c.minute,
        c.second
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(10_957), (2000, 1, 1));
        assert_eq!(civil_from_days(20_028), (2024, 11, 1));
    }

    #[test]
    fn close_times_parse() {
        assert_eq!(parse_close_time("0"), Some(0));
        assert_eq!(parse_close_time("455751310"), Some(455_751_310));
        assert_eq!(parse_close_time("2014-06-10T21:35:10Z"), Some(455_751_310));
        assert_eq!(
            parse_close_time("2014-06-10T23:35:10.25+02:00"),
            Some(455_751_310)
        );
        assert_eq!(parse_close_time("2000-01-01T00:00:00Z"), Some(0));
        assert_eq!(
            parse_close_time("2024-02-29T00:00:00Z").map(iso).as_deref(),
            Some("2024-02-29T00:00:00Z")
        );
        for bad in [
            "",
            "1999-12-31T23:59:59Z",
            "2023-02-29T00:00:00Z",
            "2024-13-01T00:00:00Z",
            "2024-01-01T24:00:00Z",
            "2024-01-01",
            "2024-01-01T00:00:00",
            "-5",
            "1e9",
            "2024-01-01T00:00:00+0200",
        ] {
            assert_eq!(parse_close_time(bad), None, "{bad}");
        }
    }

    #[test]
    fn times_print_like_rippled() {
        assert_eq!(iso(0), "2000-01-01T00:00:00Z");
        assert_eq!(iso(455_751_310), "2014-06-10T21:35:10Z");
        assert_eq!(human(0), "2000-Jan-01 00:00:00.000000000 UTC");
        // 2024-11-01T23:59:01Z
        let t = (1_730_505_541 - RIPPLE_EPOCH_OFFSET_SECS) as u32;
        assert_eq!(iso(t), "2024-11-01T23:59:01Z");
        assert_eq!(human(t), "2024-Nov-01 23:59:01.000000000 UTC");
        assert_eq!(
            human_micros(u64::from(t), 123_456),
            "2024-Nov-01 23:59:01.123456 UTC"
        );
    }
}
