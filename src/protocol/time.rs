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
