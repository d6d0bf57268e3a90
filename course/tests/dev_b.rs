// Development driver for labs 5-8 (not committed).
use course::{labs, workspace, Student, Verdict};
use std::fs;
use std::path::Path;

const STUBS: &str = r#"
pub mod lab03_leapers {
    use crate::types::*;
    fn jumps(sq: Square, d: &[(i8,i8)]) -> Bitboard { let mut b=0; for &(f,r) in d { let (x,y)=((sq%8) as i8+f,(sq/8) as i8+r); if (0..8).contains(&x)&&(0..8).contains(&y) { b|=1u64<<(y*8+x);} } b }
    pub fn knight_attacks(b: Bitboard) -> Bitboard { (0..64u8).filter(|s| b >> s & 1 == 1).fold(0, |a, sq| a | jumps(sq,&[(1,2),(2,1),(-1,2),(-2,1),(1,-2),(2,-1),(-1,-2),(-2,-1)])) }
    pub fn king_attacks(b: Bitboard) -> Bitboard { (0..64u8).filter(|s| b >> s & 1 == 1).fold(0, |a, sq| a | jumps(sq,&[(1,0),(1,1),(0,1),(-1,1),(-1,0),(-1,-1),(0,-1),(1,-1)])) }
}
"#;

fn check(dir: &Path, n: u8) -> (Verdict, usize, f64) {
    let lab = labs::get(n).unwrap();
    let mut s = Student::in_workspace(dir);
    let t = std::time::Instant::now();
    let v = lab.check(&mut s);
    (v, s.queries(), t.elapsed().as_secs_f64())
}

#[test]
fn dev_b() {
    let dir = Path::new("/tmp/labs-b-ws");
    let _ = fs::remove_dir_all(dir.join("src"));
    let all = labs::all();
    workspace::init(dir, &all, true).unwrap();
    let lib = dir.join("src/lib.rs");
    if !all.iter().any(|l| l.number() == 3) {
        let mut s = fs::read_to_string(&lib).unwrap();
        s.push_str(STUBS);
        fs::write(&lib, s).unwrap();
    }
    let only: Option<u8> = std::env::var("LAB").ok().map(|v| v.parse().unwrap());
    let mine: Vec<u8> = [5u8, 6, 7, 8]
        .into_iter()
        .filter(|n| only.is_none_or(|o| o == *n))
        .collect();
    workspace::build(dir).unwrap();
    for &n in &mine {
        let (v, q, t) = check(dir, n);
        eprintln!("== lab {n} solution: {} ({q} queries, {t:.2}s)", v.word());
        if let Verdict::Fail(d) = &v {
            eprintln!("{d}");
        }
    }
    for &n in &mine {
        let lab = labs::get(n).unwrap();
        let file = workspace::lab_file(dir, n).unwrap();
        for (name, text) in lab.files().bugs {
            fs::write(&file, text).unwrap();
            workspace::build(dir).unwrap();
            let (v, q, t) = check(dir, n);
            let expect = text
                .lines()
                .nth(1)
                .unwrap()
                .trim_start_matches("//! expect: ")
                .to_string();
            let shown = match &v {
                Verdict::Fail(d) => d.to_string(),
                other => other.word().to_string(),
            };
            eprintln!("== lab {n} bug {name}: {} ({q} queries, {t:.2}s) expect `{expect}` found: {}\n{shown}", v.word(), shown.contains(&expect));
        }
        fs::write(&file, lab.files().skeleton).unwrap();
        workspace::build(dir).unwrap();
        let (v, _, _) = check(dir, n);
        eprintln!("== lab {n} skeleton: {}", v.word());
        if let Verdict::Fail(d) = &v {
            eprintln!("{d}");
        }
        fs::write(&file, lab.files().solution).unwrap();
    }
}
