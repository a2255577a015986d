//! Harness around the `qimen` crate (repository atopx/qimen-rs), used by leishen's bench/
//! and to record oracle fixtures. Only this file is leishen's; the crate comes from crates.io.
//!
//! Input on stdin: one China-standard-time clock reading per line, `YYYY-MM-DDTHH:MM[:SS]`.
//!
//!   qimen_rs_bench dump            one JSON object per input line (the whole chart)
//!   qimen_rs_bench time [ROUNDS]   charts every input ROUNDS times (default 1); prints
//!                                  `charts=N seconds=S per_chart_us=U`

use std::io::{self, BufRead, Write};
use std::time::Instant;

use qimen::prelude::*;

fn parse(line: &str) -> Option<SolarTime> {
    let line = line.trim();
    let (date, time) = line.split_once('T')?;
    let mut d = date.split('-');
    let year: i32 = d.next()?.parse().ok()?;
    let month: u8 = d.next()?.parse().ok()?;
    let day: u8 = d.next()?.parse().ok()?;
    let mut t = time.split(':');
    let hour: u8 = t.next()?.parse().ok()?;
    let minute: u8 = t.next()?.parse().ok()?;
    let second: u8 = t.next().map(|s| s.parse().unwrap_or(0)).unwrap_or(0);
    Some(SolarTime::from_ymd_hms(year, month, day, hour, minute, second))
}

fn opt<T: std::fmt::Display>(value: Option<T>) -> String {
    value.map(|v| format!("\"{v}\"")).unwrap_or_else(|| "null".to_string())
}

fn chart_json(input: &str, q: &Qimen) -> String {
    let mut palaces = Vec::with_capacity(9);
    for p in q.palaces() {
        palaces.push(format!(
            "\"{}\":{{\"earth\":\"{}\",\"heaven\":\"{}\",\"star\":{},\"gate\":{},\"deity\":{}}}",
            p.number(),
            p.earth_stem(),
            p.heaven_stem(),
            opt(p.star()),
            opt(p.door()),
            opt(p.god())
        ));
    }
    let kong = q.kong_wang();
    format!(
        "{{\"input\":\"{}\",\"pillars\":[\"{}\",\"{}\",\"{}\",\"{}\"],\"term\":\"{}\",\"dun\":\"{}\",\"ju\":{},\"yuan\":\"{}\",\
\"xun_head\":\"{}\",\"duty_star\":\"{}\",\"duty_star_palace\":{},\"duty_gate\":\"{}\",\"duty_gate_palace\":{},\
\"void\":[\"{}\",\"{}\"],\"palaces\":{{{}}}}}",
        input.trim(),
        q.year(),
        q.month(),
        q.day(),
        q.hour(),
        q.term(),
        q.yin_yang(),
        q.ju(),
        q.yuan(),
        q.xun_shou(),
        q.zhi_fu().star(),
        q.zhi_fu().palace(),
        q.zhi_shi().door(),
        q.zhi_shi().palace(),
        kong[0],
        kong[1],
        palaces.join(",")
    )
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map(String::as_str).unwrap_or("dump");
    let lines: Vec<String> = io::stdin().lock().lines().map_while(Result::ok).filter(|l| !l.trim().is_empty()).collect();
    let times: Vec<SolarTime> = lines.iter().map(|l| parse(l).unwrap_or_else(|| panic!("bad input line {l:?}"))).collect();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    match mode {
        "dump" => {
            for (line, t) in lines.iter().zip(&times) {
                writeln!(out, "{}", chart_json(line, &t.qimen())).expect("stdout");
            }
        }
        "time" => {
            let rounds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
            let start = Instant::now();
            let mut checksum: u64 = 0;
            for _ in 0..rounds {
                for t in &times {
                    let q = std::hint::black_box(t.qimen());
                    checksum = checksum.wrapping_add(q.ju() as u64);
                }
            }
            let seconds = start.elapsed().as_secs_f64();
            let n = rounds * times.len();
            writeln!(out, "charts={n} seconds={seconds:.6} per_chart_us={:.3} checksum={checksum}", seconds * 1e6 / n as f64)
                .expect("stdout");
        }
        other => panic!("unknown mode {other:?}; use dump or time"),
    }
}
