//! `difftest targets list|install|check|new`.

use super::{pool_config, store};
use crate::cli::{GlobalArgs, TargetsCommand};
use crate::exit::{Exit, bad_input};
use crate::pipeline::target_check::check_target;
use comfy_table::{Table, presets::UTF8_FULL_CONDENSED};
use std::time::Instant;

pub fn run(global: &GlobalArgs, cmd: TargetsCommand) -> anyhow::Result<Exit> {
    let store = store(global)?;
    match cmd {
        TargetsCommand::List => list(&store),
        TargetsCommand::Install { names } => {
            for name in names {
                let spec = store.load(&name)?;
                let began = Instant::now();
                let p = store.provision(&spec)?;
                outln!(
                    "{name}: installed ({}) in {:.1} s",
                    p.fingerprint.one_line(),
                    began.elapsed().as_secs_f64()
                );
            }
            Ok(Exit::Success)
        }
        TargetsCommand::Check {
            name,
            classes,
            packages,
            pool,
        } => check(&store, &name, classes, packages, &pool),
        TargetsCommand::New(args) => new(&store, args),
    }
}

fn new(
    store: &crate::targets::TargetStore,
    args: crate::cli::TargetsNewArgs,
) -> anyhow::Result<Exit> {
    let jdk = store.load(&args.jdk)?;
    let new = crate::targets::create::NewTarget {
        name: args.name,
        description: args.description,
        maven: args.maven,
        jars: args.jar,
        classpath_from: args.classpath_from,
        jvm_options: args.jvm_options,
        force: args.force,
    };
    let file = crate::targets::create::write(store.targets_dir(), &jdk, &new)?;
    outln!("wrote {}", file.display());
    outln!("next: difftest targets install {}", new.name);
    Ok(Exit::Success)
}

fn list(store: &crate::targets::TargetStore) -> anyhow::Result<Exit> {
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    table.set_header(["target", "description", "installed", "fingerprint"]);
    let mut broken = Vec::new();
    for name in store.names()? {
        let spec = match store.load(&name) {
            Ok(spec) => spec,
            Err(e) => {
                table.add_row([
                    name.clone(),
                    "(invalid: see below)".into(),
                    "-".into(),
                    String::new(),
                ]);
                broken.push(e.to_string());
                continue;
            }
        };
        let status = store.status(&spec);
        let fingerprint = status.fingerprint.as_ref().map(|f| f.one_line());
        table.add_row([
            name.clone(),
            spec.description.clone(),
            if status.installed { "yes" } else { "no" }.to_string(),
            fingerprint.unwrap_or_default(),
        ]);
    }
    outln!("{table}");
    // Every valid target is listed; a broken file is still an error (exit 2), named on
    // stderr, with the others counted.
    match broken.len() {
        0 => Ok(Exit::Success),
        1 => Err(bad_input(broken.remove(0))),
        n => Err(bad_input(format!(
            "{} (and {} more invalid target files)",
            broken[0],
            n - 1
        ))),
    }
}

fn check(
    store: &crate::targets::TargetStore,
    name: &str,
    classes: Vec<String>,
    packages: Vec<String>,
    args: &crate::cli::PoolArgs,
) -> anyhow::Result<Exit> {
    let config = pool_config(args)?;
    let checked =
        check_target(store, name, classes, &packages, config).map_err(|e| e.into_anyhow())?;
    let (provisioned, model) = (&checked.provisioned, &checked.model);
    outln!("target:      {name}");
    outln!("fingerprint: {}", provisioned.fingerprint.one_line());
    outln!("libjvm:      {}", provisioned.jvm.libjvm.display());
    for (i, jar) in provisioned
        .fingerprint
        .classpath
        .iter()
        .flatten()
        .enumerate()
    {
        let label = if i == 0 { "classpath:" } else { "" };
        let role = match jar.role() {
            "" => String::new(),
            role => format!(" {role}"),
        };
        outln!("{label:<12} {}{role}", jar.name);
    }
    outln!("start-up:    {} ms", checked.started.as_millis());
    outln!(
        "api:         {} public classes, {} public constructors and methods (omit list applied)",
        model.classes.len(),
        model.callable_count()
    );
    if let Some(line) = super::record::unloadable_line(&checked.missing) {
        outln!("left out:    {line}");
        for (class, absent) in &checked.missing {
            outln!("             {class} (needs {absent})");
        }
    }
    Ok(Exit::Success)
}
