//! The two JUnit flavours and the shape of a generated test class: header comments,
//! package, imports (resolved by [`super::names::resolve`]), static imports of the
//! assertions used, and the fixture that pins the default locale and time zone to what
//! difftest's workers use (en-US, UTC) before each test and restores them after the class.

use super::names::{resolve, type_ref};

/// JUnit 4 (4.13: `Assert.assertThrows`) or JUnit 5 (Jupiter 5.8+: `assertThrowsExactly`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Junit {
    /// JUnit 4.
    Four,
    /// JUnit 5 (Jupiter).
    Five,
}

/// Assertions the generated code may call, statically imported when used.
const ASSERTIONS: [&str; 6] = [
    "assertEquals",
    "assertFalse",
    "assertNull",
    "assertThrows",
    "assertThrowsExactly",
    "assertTrue",
];

impl Junit {
    /// `4` or `5`.
    pub fn parse(text: &str) -> Option<Junit> {
        match text.trim() {
            "4" => Some(Junit::Four),
            "5" => Some(Junit::Five),
            _ => None,
        }
    }

    /// 4 or 5.
    pub fn number(self) -> u32 {
        match self {
            Junit::Four => 4,
            Junit::Five => 5,
        }
    }

    /// The class of the `@Test` annotation.
    pub fn test_class(self) -> &'static str {
        match self {
            Junit::Four => "org.junit.Test",
            Junit::Five => "org.junit.jupiter.api.Test",
        }
    }

    fn assertions(self) -> &'static str {
        match self {
            Junit::Four => "org.junit.Assert",
            Junit::Five => "org.junit.jupiter.api.Assertions",
        }
    }

    /// Before the class, before each test, after the class.
    fn fixture_annotations(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Junit::Four => (
                "org.junit.BeforeClass",
                "org.junit.Before",
                "org.junit.AfterClass",
            ),
            Junit::Five => (
                "org.junit.jupiter.api.BeforeAll",
                "org.junit.jupiter.api.BeforeEach",
                "org.junit.jupiter.api.AfterAll",
            ),
        }
    }
}

/// A test class to write.
pub(super) struct ClassSource<'a> {
    /// JUnit 4 or 5.
    pub junit: Junit,
    /// The package, when the class has one.
    pub package: Option<&'a str>,
    /// The class's simple name.
    pub name: &'a str,
    /// Comment lines at the top of the file (without `// `).
    pub header: Vec<String>,
    /// Test methods, with class references as markers.
    pub methods: Vec<String>,
    /// Simple names taken by classes of the package the export writes.
    pub reserved: &'a [String],
}

/// The fields and methods that save the default locale and time zone before the class,
/// pin them before each test (a test may change them, as `SimpleTimeZone.setDefault` does)
/// and restore them after the class.
fn fixture(junit: Junit) -> String {
    let (before_all, before_each, after_all) = junit.fixture_annotations();
    let (before_all, before_each, after_all) = (
        type_ref(before_all),
        type_ref(before_each),
        type_ref(after_all),
    );
    let (locale, zone) = (type_ref("java.util.Locale"), type_ref("java.util.TimeZone"));
    format!(
        "    private static {locale} savedLocale;\n\
         \x20   private static {zone} savedTimeZone;\n\n\
         \x20   @{before_all}\n\
         \x20   public static void saveLocaleAndTimeZone() {{\n\
         \x20       savedLocale = {locale}.getDefault();\n\
         \x20       savedTimeZone = {zone}.getDefault();\n\
         \x20   }}\n\n\
         \x20   @{before_each}\n\
         \x20   public void pinLocaleAndTimeZone() {{\n\
         \x20       {locale}.setDefault({locale}.US);\n\
         \x20       {zone}.setDefault({zone}.getTimeZone(\"UTC\"));\n\
         \x20   }}\n\n\
         \x20   @{after_all}\n\
         \x20   public static void restoreLocaleAndTimeZone() {{\n\
         \x20       {locale}.setDefault(savedLocale);\n\
         \x20       {zone}.setDefault(savedTimeZone);\n\
         \x20   }}\n"
    )
}

/// The whole source file of a class.
pub(super) fn render(class: &ClassSource) -> String {
    let mut body = String::new();
    body.push_str(&format!(
        "@SuppressWarnings({{\"unchecked\", \"rawtypes\", \"deprecation\", \"removal\", \"cast\"}})\n\
         public class {} {{\n\n",
        class.name
    ));
    body.push_str(&fixture(class.junit));
    for m in &class.methods {
        body.push('\n');
        body.push_str(m);
    }
    body.push_str("}\n");
    let reserved: Vec<&str> = class.reserved.iter().map(String::as_str).collect();
    let (body, imports) = resolve(&body, &reserved);
    let mut out = String::new();
    for line in &class.header {
        out.push_str("// ");
        out.push_str(line);
        out.push('\n');
    }
    if let Some(p) = class.package {
        out.push_str(&format!("package {p};\n"));
    }
    out.push('\n');
    for i in &imports {
        out.push_str(&format!("import {i};\n"));
    }
    let statics: Vec<&str> = ASSERTIONS
        .iter()
        .copied()
        .filter(|a| body.contains(&format!("{a}(")))
        .collect();
    if !statics.is_empty() {
        out.push('\n');
    }
    for a in statics {
        out.push_str(&format!(
            "import static {}.{a};\n",
            class.junit.assertions()
        ));
    }
    out.push('\n');
    out.push_str(&body);
    out
}
