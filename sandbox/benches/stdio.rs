//! Whole programs on stdin/stdout: judging throughput, and the fuel calibration.
//!
//! ```text
//! cargo bench -p verigym-sandbox --bench stdio                      # throughput, 1 process
//! cargo bench -p verigym-sandbox --bench stdio -- throughput 40 2   # N=40 per language, 2 processes
//! cargo bench -p verigym-sandbox --bench stdio -- calibrate         # fuel per CPU-second
//! ```
//!
//! Throughput: N distinct correct solutions per language of one problem ("sum n
//! integers"), each judged on 10 tests (as `StdioJudge::judge` runs them), compile included for
//! C and C++. Solutions per CPU-second count the CPU of this process and of its children
//! (clang) from `/proc/self/stat`; with PROCS > 1 the bench runs PROCS copies of itself at
//! once and reports solutions per wall-second too.
//!
//! Calibration: each CPU-bound program runs on a small and a large input; fuel per
//! CPU-second is Δfuel / ΔCPU between the two (compile and instantiation cancel out), CPU
//! of this process without its children (programs run on a thread of their own; clang is
//! a child). The same programs run natively (host `python3`, `gcc -O2`) for the slowdown
//! factor.

use std::process::Command;
use std::time::Instant;

use verigym_sandbox::{
    JudgeOptions, Language, Limits, Sandbox, SandboxConfig, StdioJudge, StdioOutcome, StdioTest,
    stdio_limits,
};

/// CPU seconds of this process (all threads, exited ones included), plus its waited-for
/// children if asked (`/proc/self/stat`, in clock ticks of 10 ms; the kernel scales the
/// totals to its nanosecond accounting).
fn cpu(with_children: bool) -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which is in parentheses and may contain spaces).
    let rest = stat.rsplit_once(") ").map_or("", |(_, r)| r);
    let fields: Vec<f64> = rest
        .split_whitespace()
        .map(|f| f.parse().unwrap_or(0.0))
        .collect();
    // utime, stime, cutime, cstime are fields 14..=17 (1-based), i.e. 11..=14 here.
    let end = if with_children { 15 } else { 13 };
    fields
        .get(11..end)
        .map_or(0.0, |f| f.iter().sum::<f64>() / 100.0)
}

fn process_cpu() -> f64 {
    cpu(true)
}

fn own_cpu() -> f64 {
    cpu(false)
}

fn sum_solution(language: Language, i: usize) -> String {
    match language {
        Language::Python => format!(
            "# solution {i}\nimport sys\ndata = sys.stdin.buffer.read().split()\n\
             n = int(data[0])\ntotal_{i} = sum(map(int, data[1:1 + n]))\nprint(total_{i})\n"
        ),
        Language::C => format!(
            "#include <stdio.h>\n/* solution {i} */\nint main(void) {{ int n; long long s = 0, x;\n\
             if (scanf(\"%d\", &n) != 1) return 1;\n\
             for (int k = 0; k < n; k++) {{ scanf(\"%lld\", &x); s += x; }}\n\
             printf(\"%lld\\n\", s + {i} - {i}); return 0; }}\n"
        ),
        Language::Cpp => format!(
            "#include <bits/stdc++.h>\nusing namespace std;\n// solution {i}\nint main() {{\n\
             ios::sync_with_stdio(false); cin.tie(nullptr);\n\
             int n; cin >> n; vector<long long> a(n); for (auto &x : a) cin >> x;\n\
             cout << accumulate(a.begin(), a.end(), {i}LL) - {i} << '\\n'; }}\n"
        ),
    }
}

fn sum_tests() -> Vec<StdioTest> {
    (0..10u64)
        .map(|t| {
            let n = 1 + t * 37;
            let xs: Vec<u64> = (0..n).map(|k| (k * 7919 + t) % 1_000_003).collect();
            let text: Vec<String> = xs.iter().map(u64::to_string).collect();
            StdioTest {
                input: format!("{n}\n{}\n", text.join(" ")),
                expected: format!("{}\n", xs.iter().sum::<u64>()),
            }
        })
        .collect()
}

fn throughput(judge: &StdioJudge, n: usize) {
    let tests = sum_tests();
    for (language, count) in [
        (Language::Python, n),
        (Language::C, n.div_ceil(4)),
        (Language::Cpp, n.div_ceil(4)),
    ] {
        if let Err(e) = judge.ensure(language) {
            println!("{language:?}: skipped ({e})");
            continue;
        }
        let limits = stdio_limits(language, 1.0);
        let (wall, cpu, own) = (Instant::now(), process_cpu(), own_cpu());
        for i in 0..count {
            let src = sum_solution(language, i);
            let j = judge
                .judge(language, &src, &tests, &limits, &JudgeOptions::default())
                .unwrap();
            assert!(j.passed(), "{language:?}: {j:?}");
        }
        let (wall, cpu) = (wall.elapsed().as_secs_f64(), process_cpu() - cpu);
        let own = own_cpu() - own;
        println!(
            "{:<7} {count:>4} solutions x {} tests: {:>7.1} solutions/CPU-s, {:>7.1} solutions/s wall \
             ({:.1} ms CPU per solution, of which {:.1} ms in clang)",
            language.name(),
            tests.len(),
            count as f64 / cpu.max(1e-9),
            count as f64 / wall,
            1000.0 * cpu / count as f64,
            1000.0 * (cpu - own) / count as f64
        );
    }
}

fn parallel(n: usize, procs: usize) {
    let exe = std::env::current_exe().unwrap();
    let (wall, cpu) = (Instant::now(), process_cpu());
    let children: Vec<_> = (0..procs)
        .map(|_| {
            Command::new(&exe)
                .args(["throughput", &n.to_string(), "1"])
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let (wall, cpu) = (wall.elapsed().as_secs_f64(), process_cpu() - cpu);
    let per_proc = n + 2 * n.div_ceil(4);
    println!(
        "{procs} processes: {} solutions (all languages) in {wall:.1} s wall, {cpu:.1} CPU-s: \
         {:.1} solutions/s wall",
        procs * per_proc,
        (procs * per_proc) as f64 / wall
    );
}

/// (language, program reading `n` from stdin, small n, large n)
const CALIBRATION: &[(Language, &str, &str, u64, u64)] = &[
    (
        Language::Python,
        "loop",
        "n = int(input())\ns = 0\nfor i in range(n):\n    s = (s + i * i) % 1000003\nprint(s)\n",
        10,
        2_000_000,
    ),
    (
        Language::Python,
        "sort",
        "n = int(input())\na = [(i * 7919) % 100003 for i in range(n)]\na.sort()\nprint(a[n // 2])\n",
        10,
        1_000_000,
    ),
    (
        Language::Python,
        "dict",
        "n = int(input())\nd = {}\nfor i in range(n):\n    k = (i * 31) % 5003\n    d[k] = d.get(k, 0) + 1\nprint(len(d))\n",
        10,
        1_000_000,
    ),
    (
        Language::Python,
        "strings",
        "n = int(input())\nprint(len(' '.join(str(i) for i in range(n))))\n",
        10,
        1_000_000,
    ),
    (
        Language::Python,
        "calls",
        "def f(x):\n    return x + 1\nn = int(input())\ns = 0\nfor i in range(n):\n    s = f(s)\nprint(s)\n",
        10,
        1_000_000,
    ),
    (
        Language::C,
        "loop",
        "#include <stdio.h>\nint main(void) { long long n, s = 0; scanf(\"%lld\", &n);\nfor (long long i = 0; i < n; i++) s = (s + i * i) % 1000003;\nprintf(\"%lld\\n\", s); }\n",
        10,
        300_000_000,
    ),
    (
        Language::C,
        "sort",
        "#include <stdio.h>\n#include <stdlib.h>\nstatic int cmp(const void *a, const void *b) { int x = *(const int *)a, y = *(const int *)b; return (x > y) - (x < y); }\nint main(void) { int n; scanf(\"%d\", &n); int *a = malloc(sizeof(int) * n);\nfor (int i = 0; i < n; i++) a[i] = (int)((i * 7919LL) % 100003);\nqsort(a, n, sizeof(int), cmp); printf(\"%d\\n\", a[n / 2]); }\n",
        10,
        3_000_000,
    ),
    (
        Language::C,
        "count",
        "#include <stdio.h>\nstatic int cnt[5003];\nint main(void) { long long n; scanf(\"%lld\", &n); int d = 0;\nfor (long long i = 0; i < n; i++) { int k = (int)((i * 31) % 5003); d += cnt[k]++ == 0; }\nprintf(\"%d\\n\", d); }\n",
        10,
        100_000_000,
    ),
    (
        Language::C,
        "strings",
        "#include <stdio.h>\n#include <string.h>\nstatic char buf[64];\nint main(void) { long long n, len = 0; scanf(\"%lld\", &n);\nfor (long long i = 0; i < n; i++) len += sprintf(buf, \"%lld \", i);\nprintf(\"%lld\\n\", len); }\n",
        10,
        10_000_000,
    ),
    (
        Language::C,
        "calls",
        "#include <stdio.h>\nstatic int fib(int k) { return k < 2 ? k : fib(k - 1) + fib(k - 2); }\nint main(void) { int n; scanf(\"%d\", &n); printf(\"%d\\n\", fib(n)); }\n",
        10,
        35,
    ),
    (
        Language::Cpp,
        "sort",
        "#include <bits/stdc++.h>\nint main() { int n; std::cin >> n; std::vector<int> a(n);\nfor (int i = 0; i < n; i++) a[i] = (int)((i * 7919LL) % 100003);\nstd::sort(a.begin(), a.end()); std::cout << a[n / 2] << '\\n'; }\n",
        10,
        5_000_000,
    ),
    (
        Language::Cpp,
        "map",
        "#include <bits/stdc++.h>\nint main() { long long n; std::cin >> n; std::map<int, int> m;\nfor (long long i = 0; i < n; i++) m[(int)((i * 31) % 5003)]++;\nstd::cout << m.size() << '\\n'; }\n",
        10,
        3_000_000,
    ),
    (
        Language::Cpp,
        "strings",
        "#include <bits/stdc++.h>\nint main() { long long n; std::cin >> n; std::string s;\nfor (long long i = 0; i < n; i++) { s += std::to_string(i); s += ' '; }\nstd::cout << s.size() << '\\n'; }\n",
        10,
        5_000_000,
    ),
];

fn calibrate(judge: &StdioJudge) {
    let big = Limits {
        fuel: 1 << 40,
        memory_bytes: 1 << 30,
        output_bytes: 1 << 20,
        wall_ms: 600_000,
    };
    let mut rates: Vec<(Language, f64)> = Vec::new();
    for &(language, name, src, small, large) in CALIBRATION {
        if judge.ensure(language).is_err() {
            continue;
        }
        let measure = |n: u64| {
            let t = own_cpu();
            let out = judge
                .run(language, src, &[&format!("{n}\n")], &big)
                .unwrap();
            let cpu = own_cpu() - t;
            match &out[0] {
                StdioOutcome::Exited { fuel_used, .. } => (*fuel_used as f64, cpu),
                other => panic!("{language:?} {name}: {other:?}"),
            }
        };
        measure(small); // warm: compile caches, the component
        let (f0, c0) = measure(small);
        let (f1, c1) = measure(large);
        let rate = (f1 - f0) / (c1 - c0).max(1e-9);
        let native = native_cpu(language, src, large);
        println!(
            "{:<7} {name:<8} n={large:<10} {:>6.3} CPU-s in the sandbox, {:.2e} fuel: {:.2e} fuel/CPU-s{}",
            language.name(),
            c1 - c0,
            f1 - f0,
            rate,
            native.map_or(String::new(), |s| format!(
                "; native {s:.3} CPU-s ({:.1}x)",
                (c1 - c0) / s
            ))
        );
        rates.push((language, rate));
    }
    for language in [Language::Python, Language::C, Language::Cpp] {
        let mut r: Vec<f64> = rates
            .iter()
            .filter(|(l, _)| *l == language)
            .map(|(_, r)| *r)
            .collect();
        if r.is_empty() {
            continue;
        }
        r.sort_by(f64::total_cmp);
        println!(
            "{:<7} median {:.2e} fuel/CPU-s (min {:.2e}, max {:.2e}); the crate uses {:.2e}",
            language.name(),
            r[r.len() / 2],
            r[0],
            r[r.len() - 1],
            language.fuel_per_cpu_second() as f64
        );
    }
}

/// CPU seconds of the same program run natively (host python3 / gcc -O2), if available.
fn native_cpu(language: Language, src: &str, n: u64) -> Option<f64> {
    let dir = tempfile::tempdir().ok()?;
    let run = |cmd: &mut Command| -> Option<f64> {
        use std::io::Write;
        let before = process_cpu();
        let mut child = cmd
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .spawn()
            .ok()?;
        child
            .stdin
            .take()?
            .write_all(format!("{n}\n").as_bytes())
            .ok()?;
        child.wait().ok()?.success().then(|| process_cpu() - before)
    };
    match language {
        Language::Python => {
            let path = dir.path().join("p.py");
            std::fs::write(&path, src).ok()?;
            run(Command::new("python3").arg(&path))
        }
        Language::C | Language::Cpp => {
            let (ext, compiler) = match language {
                Language::C => ("c", "gcc"),
                _ => ("cpp", "g++"),
            };
            let path = dir.path().join(format!("p.{ext}"));
            let exe = dir.path().join("p");
            std::fs::write(&path, src).ok()?;
            let built = Command::new(compiler)
                .args(["-O2", "-o"])
                .arg(&exe)
                .arg(&path)
                .status()
                .ok()?;
            built.success().then_some(())?;
            run(&mut Command::new(&exe))
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let mode = args.first().map_or("throughput", String::as_str);
    let num =
        |i: usize, default: usize| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let sandbox = Sandbox::new(SandboxConfig::default()).expect("engine");
    let judge = StdioJudge::new(&sandbox).expect("judge");
    match mode {
        "calibrate" => calibrate(&judge),
        "throughput" => {
            let (n, procs) = (num(1, 40), num(2, 1));
            if procs > 1 {
                parallel(n, procs);
            } else {
                throughput(&judge, n);
            }
        }
        other => {
            eprintln!("unknown mode {other:?}: throughput [N] [PROCS] | calibrate");
            std::process::exit(2);
        }
    }
}
