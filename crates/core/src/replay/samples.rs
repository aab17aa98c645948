//! Hand-built sequences over the JDK for tests and the replay benchmark (until suites come
//! from the generator): known behaviour changes between JDK releases, such as
//! `DateFormat.getTimeInstance(SHORT, Locale.US).format(new Date(0L))` (`12:00 AM` on 17,
//! `12:00\u202FAM` on 21) and `Double.toString(2e23)` (`1.9999999999999998E23` on 17,
//! `2.0E23` on 19+), plus seeded random variations of a dozen templates; and [`record`],
//! which turns sequences into tests by running them on a reference twice.

use crate::message::SeqRequest;
use crate::pool::{Pool, PoolError};
use crate::sequence::{Observed, ObserverCall, SeqResult, Statement};
use crate::suite::Test;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A string value as the agent reports it.
pub(crate) fn string(text: &str) -> Observed {
    Observed::Value {
        class: "java.lang.String".into(),
        text: text.into(),
    }
}

/// `DateFormat.getTimeInstance(3, Locale.US).format(new Date(0L))`.
pub fn time_format_statements() -> Vec<Statement> {
    date_format("getTimeInstance", "3", "US", "0")
}

/// `DateFormat.METHOD(STYLE, Locale.LOCALE).format(new Date(MILLIS))`.
fn date_format(method: &str, style: &str, locale: &str, millis: &str) -> Vec<Statement> {
    vec![
        Statement::literal("int", style),
        Statement::field("java.util.Locale", locale, None),
        Statement::call(
            "java.text.DateFormat",
            method,
            &["int", "java.util.Locale"],
            None,
            &[0, 1],
        ),
        Statement::literal("long", millis),
        Statement::new("java.util.Date", &["long"], &[3]),
        Statement::call(
            "java.text.DateFormat",
            "format",
            &["java.util.Date"],
            Some(2),
            &[4],
        ),
    ]
}

/// The time-format test with the value JDK 17 gives (`12:00 AM`).
pub fn time_format_test(id: u64) -> Test {
    let mut expected = vec![None; 6];
    expected[5] = Some(string("12:00 AM"));
    Test {
        id,
        statements: time_format_statements(),
        observers: vec![],
        expected_steps: expected,
        expected_observations: vec![],
        varies: Vec::new(),
    }
}

/// `Double.toString(x)` with the value JDK 17 gives.
pub fn double_test(id: u64, literal: &str, on_17: &str) -> Test {
    Test {
        id,
        statements: vec![
            Statement::literal("double", literal),
            Statement::call("java.lang.Double", "toString", &["double"], None, &[0]),
        ],
        observers: vec![],
        expected_steps: vec![None, Some(string(on_17))],
        expected_observations: vec![],
        varies: Vec::new(),
    }
}

/// Seeded random sequences over a dozen JDK templates.
pub fn generate(seed: u64, count: usize) -> Vec<SeqRequest> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count).map(|_| template(&mut rng)).collect()
}

/// Seeded random sequences of `calls` templates each, concatenated (longer tests, as a
/// generator makes them).
pub fn generate_long(seed: u64, count: usize, calls: usize) -> Vec<SeqRequest> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let mut whole = SeqRequest {
                statements: Vec::new(),
                observers: Vec::new(),
            };
            for _ in 0..calls.max(1) {
                let part = template(&mut rng);
                let base = whole.statements.len();
                whole
                    .statements
                    .extend(part.statements.iter().map(|s| s.remap(|i| i + base)));
                whole
                    .observers
                    .extend(part.observers.into_iter().map(|mut o| {
                        o.stmt += base;
                        o
                    }));
            }
            whole
        })
        .collect()
}

const LOCALES: [&str; 8] = [
    "US", "UK", "GERMANY", "FRANCE", "JAPAN", "CHINA", "KOREA", "ITALY",
];

fn template(rng: &mut ChaCha8Rng) -> SeqRequest {
    let loc = LOCALES[rng.random_range(0..LOCALES.len())];
    let (statements, observers) = match rng.random_range(0..10) {
        0 => (doubles(rng), vec![]),
        1 => (time_format(rng, loc), vec![]),
        2 => (currency(rng, loc), vec![]),
        3 => (substring(rng), vec![]),
        4 => list_get(rng),
        5 => big_decimal(rng),
        6 => (char_name(rng), vec![]),
        7 => (parse_int(rng), vec![]),
        8 => (display_name(rng, loc), vec![]),
        _ => (float_to_string(rng), vec![]),
    };
    SeqRequest {
        statements,
        observers,
    }
}

fn doubles(rng: &mut ChaCha8Rng) -> Vec<Statement> {
    let value = format!("{}.0E{}", rng.random_range(1..10), rng.random_range(0..310));
    vec![
        Statement::literal("double", &value),
        Statement::call("java.lang.Double", "toString", &["double"], None, &[0]),
    ]
}

fn float_to_string(rng: &mut ChaCha8Rng) -> Vec<Statement> {
    let value = format!(
        "{}.0E{}",
        rng.random_range(1..10),
        rng.random_range(-45..39)
    );
    vec![
        Statement::literal("float", &value),
        Statement::call("java.lang.Float", "toString", &["float"], None, &[0]),
    ]
}

fn time_format(rng: &mut ChaCha8Rng, loc: &str) -> Vec<Statement> {
    let method = ["getTimeInstance", "getDateInstance"][rng.random_range(0..2)];
    let millis = rng.random_range(0..4_000_000_000_000i64).to_string();
    let style = rng.random_range(0..4).to_string();
    date_format(method, &style, loc, &millis)
}

fn currency(rng: &mut ChaCha8Rng, loc: &str) -> Vec<Statement> {
    let amount = format!(
        "{}.{}",
        rng.random_range(-100_000..100_000),
        rng.random_range(0..100)
    );
    vec![
        Statement::field("java.util.Locale", loc, None),
        Statement::call(
            "java.text.NumberFormat",
            "getCurrencyInstance",
            &["java.util.Locale"],
            None,
            &[0],
        ),
        Statement::literal("double", &amount),
        Statement::call(
            "java.text.NumberFormat",
            "format",
            &["double"],
            Some(1),
            &[2],
        ),
    ]
}

fn substring(rng: &mut ChaCha8Rng) -> Vec<Statement> {
    let words = ["hello", "", "\\u00E9t\\u00E9", "a b c", "12:00"];
    vec![
        Statement::literal("java.lang.String", words[rng.random_range(0..words.len())]),
        Statement::literal("int", &rng.random_range(-1..6).to_string()),
        Statement::literal("int", &rng.random_range(-1..7).to_string()),
        Statement::call(
            "java.lang.String",
            "substring",
            &["int", "int"],
            Some(0),
            &[1, 2],
        ),
    ]
}

fn list_get(rng: &mut ChaCha8Rng) -> (Vec<Statement>, Vec<ObserverCall>) {
    let mut s = vec![Statement::new("java.util.ArrayList", &[], &[])];
    for _ in 0..rng.random_range(0..4) {
        s.push(Statement::literal(
            "java.lang.String",
            &format!("x{}", rng.random_range(0..100)),
        ));
        let last = s.len() - 1;
        s.push(Statement::call(
            "java.util.ArrayList",
            "add",
            &["java.lang.Object"],
            Some(0),
            &[last],
        ));
    }
    s.push(Statement::literal(
        "int",
        &rng.random_range(-1..5).to_string(),
    ));
    let last = s.len() - 1;
    s.push(Statement::call(
        "java.util.ArrayList",
        "get",
        &["int"],
        Some(0),
        &[last],
    ));
    (
        s,
        vec![
            ObserverCall::new(0, "java.util.ArrayList", "size"),
            ObserverCall::new(0, "java.util.ArrayList", "toString"),
        ],
    )
}

fn big_decimal(rng: &mut ChaCha8Rng) -> (Vec<Statement>, Vec<ObserverCall>) {
    let text = format!(
        "{}E{}",
        rng.random_range(-99_999..99_999) * 100,
        rng.random_range(-5..5)
    );
    let s = vec![
        Statement::literal("java.lang.String", &text),
        Statement::new("java.math.BigDecimal", &["java.lang.String"], &[0]),
        Statement::call(
            "java.math.BigDecimal",
            "stripTrailingZeros",
            &[],
            Some(1),
            &[],
        ),
    ];
    let class = "java.math.BigDecimal";
    (
        s,
        vec![
            ObserverCall::new(2, class, "toString"),
            ObserverCall::new(2, class, "toPlainString"),
            ObserverCall::new(2, class, "scale"),
        ],
    )
}

fn char_name(rng: &mut ChaCha8Rng) -> Vec<Statement> {
    let cp = rng.random_range(0x1F900..0x1FB00).to_string();
    let method = ["getName", "isLetter", "getType", "isEmoji"][rng.random_range(0..4)];
    vec![
        Statement::literal("int", &cp),
        Statement::call("java.lang.Character", method, &["int"], None, &[0]),
    ]
}

fn parse_int(rng: &mut ChaCha8Rng) -> Vec<Statement> {
    let inputs = [
        "42",
        "-0",
        "+7",
        "0x10",
        "2147483648",
        "",
        "\\u0661\\u0662",
        "1_000",
    ];
    vec![
        Statement::literal(
            "java.lang.String",
            inputs[rng.random_range(0..inputs.len())],
        ),
        Statement::call(
            "java.lang.Integer",
            "parseInt",
            &["java.lang.String"],
            None,
            &[0],
        ),
    ]
}

fn display_name(rng: &mut ChaCha8Rng, loc: &str) -> Vec<Statement> {
    let other = LOCALES[rng.random_range(0..LOCALES.len())];
    let method =
        ["getDisplayName", "getDisplayCountry", "getDisplayLanguage"][rng.random_range(0..3)];
    vec![
        Statement::field("java.util.Locale", loc, None),
        Statement::field("java.util.Locale", other, None),
        Statement::call(
            "java.util.Locale",
            method,
            &["java.util.Locale"],
            Some(0),
            &[1],
        ),
    ]
}

/// Turns sequences into tests by running them twice on `reference`: steps that differ
/// between the runs and objects are not checked, observers that differ are dropped, and
/// sequences that hang, crash or change outcome are dropped. Ids count from `first_id`.
pub fn record(
    reference: &Pool,
    seqs: &[SeqRequest],
    first_id: u64,
) -> Result<Vec<Test>, PoolError> {
    let a = reference.run(seqs, false)?;
    let b = reference.run(seqs, false)?;
    let tests = seqs
        .iter()
        .zip(a.iter().zip(&b))
        .filter_map(|(seq, (a, b))| expectations(seq, a, b))
        .enumerate()
        .map(|(i, mut t)| {
            t.id = first_id + i as u64;
            t
        })
        .collect();
    Ok(tests)
}

fn expectations(seq: &SeqRequest, a: &SeqResult, b: &SeqResult) -> Option<Test> {
    let (
        SeqResult::Done {
            steps: sa,
            observations: oa,
            ..
        },
        SeqResult::Done {
            steps: sb,
            observations: ob,
            ..
        },
    ) = (a, b)
    else {
        return None;
    };
    if sa.len() != sb.len()
        || sa
            .iter()
            .zip(sb)
            .any(|(x, y)| x.is_abnormal() != y.is_abnormal())
    {
        return None;
    }
    let checked = |x: &Observed, y: &Observed| {
        (x == y && !matches!(x, Observed::Object { .. })).then(|| x.clone())
    };
    let expected_steps = sa.iter().zip(sb).map(|(x, y)| checked(x, y)).collect();
    let statements = seq.statements[..sa.len()].to_vec();
    // One that differed runs on unchecked: an observer may change what a later one reads.
    let mut expected_observations: Vec<Option<Observed>> = oa
        .iter()
        .zip(ob)
        .map(|(x, y)| (x == y).then(|| x.clone()))
        .collect();
    let checked = expected_observations.iter().rposition(Option::is_some);
    expected_observations.truncate(checked.map_or(0, |i| i + 1));
    let observers = seq.observers[..expected_observations.len()].to_vec();
    Some(Test {
        id: 0,
        statements,
        observers,
        expected_steps,
        expected_observations,
        varies: Vec::new(),
    })
}
