use super::*;
use crate::toolkit::screen::run_script;
use crate::toolkit::testkit;

fn task_of(errand_kind: fn(&Errand) -> bool) -> SiteNavTask {
    let mut rng = Rng::from_seed(31);
    loop {
        let task = SiteNav::generate(&SiteNavConfig::default(), &mut rng);
        if errand_kind(&task.errand) {
            return task;
        }
    }
}

fn act(env: &mut SiteNav, text: &str) -> String {
    let call = env.parse_action(0, text).unwrap();
    env.apply(0, call).unwrap();
    env.message.clone()
}

fn click(env: &mut SiteNav, key: &str) -> String {
    let id = env
        .page
        .id_for(key)
        .unwrap_or_else(|| panic!("{key} not visible:\n{}", env.page.render()));
    act(env, &format!("click [{id}]"))
}

#[test]
fn pages_render_as_an_accessibility_tree() {
    let task = task_of(|e| *e == Errand::Profile);
    let mut env = SiteNav::reset(&task, Rng::from_seed(0));
    let b = env.page.base_id;
    assert_eq!(
        env.page.render(),
        format!(
            "page \"Home\"\n  [{}] link \"Home\"\n  [{}] link \"Profile\"\n  [{}] link \"Settings\"\n  [{}] link \"Support\"\n  \
             [{}] link \"Help center\"\n  heading \"Account portal\"\n  text \"Welcome back, {}.\"\n",
            b,
            b + 1,
            b + 2,
            b + 3,
            b + 4,
            task.name
        )
    );
    click(&mut env, "nav:profile");
    click(&mut env, "edit");
    let phone = env.page.id_for("f:phone").unwrap();
    assert_eq!(
        act(&mut env, &format!("type [{phone}] \"+1 555 0000\"")),
        "typed"
    );
    assert!(env.page.render().contains(&format!(
        "[{phone}] textbox \"phone\" value=\"+1 555 0000\""
    )));
    // Leaving the form drops the draft.
    act(&mut env, "back");
    assert_eq!(env.backend, task.initial);
    click(&mut env, "edit");
    let phone = env.page.id_for("f:phone").unwrap();
    act(&mut env, &format!("type [{phone}] \"+1 555 0000\""));
    assert_eq!(act(&mut env, "submit"), "profile saved");
    assert_eq!(env.backend.profile[1], "+1 555 0000");
    assert!(!env.score(0).passed, "only one of two fields changed");
}

#[test]
fn checkbox_drafts_persist_only_when_saved() {
    let task = task_of(|e| *e == Errand::Topics);
    let mut env = SiteNav::reset(&task, Rng::from_seed(0));
    click(&mut env, "nav:settings");
    let first = format!("t:{}", task.initial.topics[0].0);
    assert!(click(&mut env, &first).starts_with("toggled"));
    click(&mut env, "nav:home");
    assert_eq!(env.backend, task.initial);
    click(&mut env, "nav:settings");
    click(&mut env, &first);
    act(&mut env, "submit");
    assert_ne!(env.backend.topics[0].1, task.initial.topics[0].1);
}

#[test]
fn done_without_the_change_and_infeasible_errands() {
    let task = task_of(|e| *e == Errand::Ticket);
    assert!(
        !run_script::<SiteNav>(&task, ["answer done".to_string()])
            .0
            .passed
    );
    let impossibles = [
        task_of(|e| *e == Errand::MissingCategory),
        task_of(|e| *e == Errand::MissingArticle),
    ];
    for impossible in impossibles {
        let errand = impossible.errand.clone();
        let evidence =
            crate::toolkit::final_answer::infeasible_evidence(&impossible.answer).unwrap();
        match errand {
            Errand::MissingCategory => assert_eq!(evidence, impossible.categories.join(", ")),
            _ => assert_eq!(evidence.split(", ").count(), impossible.articles.len() - 1),
        }
        let verdict = |text: &str| {
            run_script::<SiteNav>(&impossible, [format!("answer {}", json!(text))])
                .0
                .passed
        };
        assert!(verdict(&impossible.answer));
        assert!(verdict(&format!(
            "INFEASIBLE: {}.",
            evidence.replace(", ", ",")
        )));
        for wrong in [
            "infeasible".to_string(),
            "done".to_string(),
            format!("infeasible: {}", CATEGORIES.join(", ")),
            format!("infeasible: {evidence}, other"),
            format!("infeasible: {evidence} or infeasible: billing"),
        ] {
            assert!(!verdict(&wrong), "{wrong:?}");
        }
    }
}

#[test]
fn infeasible_verdicts_need_their_evidence() {
    testkit::assert_infeasible_needs_evidence::<SiteNav>(SiteNavConfig {
        infeasible_share: 0.5,
        ..SiteNavConfig::default()
    });
}

#[test]
fn acceptance_easy_and_hard() {
    testkit::assert_acceptance::<SiteNav>(
        SiteNavConfig {
            topics: 3,
            articles: 2,
            tickets: 0,
            ..SiteNavConfig::default()
        },
        true,
    );
    testkit::assert_acceptance::<SiteNav>(
        SiteNavConfig {
            topics: 8,
            articles: 10,
            tickets: 6,
            ..SiteNavConfig::default()
        },
        true,
    );
}

testkit::format_tests!(SiteNav, SiteNavConfig::default());

#[test]
fn replaying_logged_actions_rescores_the_same() {
    testkit::assert_replay_rescores::<SiteNav>(SiteNavConfig::default());
}
