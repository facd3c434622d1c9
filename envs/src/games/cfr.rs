//! Exact analysis of small two-player zero-sum card games, built from an
//! env's own state transitions: the game tree, counterfactual regret
//! minimisation (CFR), exact expected values of tabular policies, and
//! exploitability.
//!
//! The tree is built by replaying the env itself: every chance outcome is a
//! task (the deal), every decision node's actions are its `legal_actions`,
//! and an information set is the acting player's observation text. So the
//! numbers computed here test the implementation, not a separate model of
//! the rules: an observation that leaked the opponent's card would split
//! information sets and change the game value.

use std::collections::HashMap;

use crate::core::{Env, Player, Turn};
use crate::rng::Rng;

/// A tabular policy: for each information set (observation text), a
/// probability per legal action, in `legal_actions` order.
pub type Policy = HashMap<String, Vec<f64>>;

enum Node {
    Terminal([f64; 2]),
    Decision {
        player: Player,
        infoset: usize,
        children: Vec<usize>,
    },
}

/// One information set: the observation text and its legal actions.
pub struct Infoset {
    pub key: String,
    /// A short name for policy files (`K:cb`); the key itself when the
    /// tree was built without one.
    pub label: String,
    pub player: Player,
    pub actions: Vec<String>,
}

/// The whole game tree of an env over a uniform or weighted set of deals.
pub struct Tree {
    nodes: Vec<Node>,
    roots: Vec<(usize, f64)>,
    pub infosets: Vec<Infoset>,
}

impl Tree {
    /// Builds the tree of `E` from each `(task, probability)` deal.
    ///
    /// # Panics
    /// If the env is not two-player, moves simultaneously, uses chance
    /// during play in a way that differs between replays, or lists no
    /// legal actions at a decision.
    pub fn build<E: Env>(deals: &[(E::Task, f64)]) -> Tree {
        Tree::build_labelled::<E>(deals, |state, player| state.observe(player).text)
    }

    /// As [`Tree::build`], naming each information set by `label` (a short
    /// key such as card and betting history) for policy files.
    ///
    /// # Panics
    /// As [`Tree::build`]; also when one label names two information sets
    /// or one information set gets two labels.
    pub fn build_labelled<E: Env>(
        deals: &[(E::Task, f64)],
        label: impl Fn(&E, Player) -> String,
    ) -> Tree {
        assert_eq!(E::SPEC.players, 2, "two-player games only");
        let mut tree = Tree {
            nodes: Vec::new(),
            roots: Vec::new(),
            infosets: Vec::new(),
        };
        let mut index: HashMap<String, usize> = HashMap::new();
        for (task, probability) in deals {
            let state = E::reset(task, Rng::from_seed(0));
            let root = tree.add(&state, &mut index, &label);
            tree.roots.push((root, *probability));
        }
        tree
    }

    fn add<E: Env>(
        &mut self,
        state: &E,
        index: &mut HashMap<String, usize>,
        label: &impl Fn(&E, Player) -> String,
    ) -> usize {
        let player = match state.turn() {
            Turn::Over => {
                let utility = [state.score(0).reward, state.score(1).reward];
                self.nodes.push(Node::Terminal(utility));
                return self.nodes.len() - 1;
            }
            Turn::Player(p) => p,
            Turn::Simultaneous(_) => panic!("simultaneous moves are not supported"),
        };
        let observation = state.observe(player);
        let actions = observation.legal_actions.expect("listed legal actions");
        assert!(!actions.is_empty(), "a decision without legal actions");
        let name = label(state, player);
        let infoset = *index.entry(observation.text.clone()).or_insert_with(|| {
            assert!(
                self.infosets.iter().all(|i| i.label != name),
                "label {name:?} names two information sets"
            );
            self.infosets.push(Infoset {
                key: observation.text,
                label: name.clone(),
                player,
                actions: actions.clone(),
            });
            self.infosets.len() - 1
        });
        assert_eq!(
            self.infosets[infoset].actions, actions,
            "one information set, two action lists"
        );
        assert_eq!(
            self.infosets[infoset].label, name,
            "one information set, two labels"
        );
        let children = actions
            .iter()
            .map(|a| {
                let mut next = state.clone();
                let action = next.parse_action(player, a).expect("legal actions parse");
                next.apply(player, action).expect("legal actions apply");
                self.add(&next, index, label)
            })
            .collect();
        self.nodes.push(Node::Decision {
            player,
            infoset,
            children,
        });
        self.nodes.len() - 1
    }

    /// The information set a policy-file key names: its label or its full
    /// observation text.
    pub fn infoset(&self, key: &str) -> Option<&Infoset> {
        self.infosets
            .iter()
            .find(|i| i.label == key || i.key == key)
    }

    /// Each seat's value when it best-responds to `policy` and the other
    /// seat follows it.
    pub fn best_responses(&self, policy: &Policy) -> [f64; 2] {
        [
            self.best_response_value(policy, 0),
            self.best_response_value(policy, 1),
        ]
    }

    /// Number of decision nodes and terminals.
    pub fn size(&self) -> usize {
        self.nodes.len()
    }

    fn table(&self, policy: &Policy) -> Vec<Vec<f64>> {
        self.infosets
            .iter()
            .map(|i| {
                policy
                    .get(&i.key)
                    .cloned()
                    .unwrap_or_else(|| vec![1.0 / i.actions.len() as f64; i.actions.len()])
            })
            .collect()
    }

    /// Each player's exact expected return when both follow `policy`
    /// (information sets it lacks are played uniformly at random).
    pub fn expected_returns(&self, policy: &Policy) -> [f64; 2] {
        let table = self.table(policy);
        let mut total = [0.0; 2];
        for &(root, p) in &self.roots {
            let v = self.value(root, &table);
            total[0] += p * v[0];
            total[1] += p * v[1];
        }
        total
    }

    fn value(&self, node: usize, table: &[Vec<f64>]) -> [f64; 2] {
        match &self.nodes[node] {
            Node::Terminal(u) => *u,
            Node::Decision {
                infoset, children, ..
            } => {
                let mut v = [0.0; 2];
                for (child, prob) in children.iter().zip(&table[*infoset]) {
                    if *prob > 0.0 {
                        let c = self.value(*child, table);
                        v[0] += prob * c[0];
                        v[1] += prob * c[1];
                    }
                }
                v
            }
        }
    }

    /// The best return `responder` can get against the others playing
    /// `policy`: a best response chosen per information set (the games
    /// here have perfect recall, so deeper sets are settled first).
    pub fn best_response_value(&self, policy: &Policy, responder: Player) -> f64 {
        let table = self.table(policy);
        // Weight of each responder node: chance times the opponent's reach.
        let mut members: Vec<Vec<(usize, f64)>> = vec![Vec::new(); self.infosets.len()];
        let mut stack: Vec<(usize, f64)> = self.roots.clone();
        while let Some((node, weight)) = stack.pop() {
            if let Node::Decision {
                player,
                infoset,
                children,
            } = &self.nodes[node]
            {
                if *player == responder {
                    members[*infoset].push((node, weight));
                    stack.extend(children.iter().map(|&c| (c, weight)));
                } else {
                    stack.extend(
                        children
                            .iter()
                            .zip(&table[*infoset])
                            .map(|(&c, &p)| (c, weight * p)),
                    );
                }
            }
        }
        let mut choice: Vec<Option<usize>> = vec![None; self.infosets.len()];
        let mut total = 0.0;
        for &(root, p) in &self.roots {
            total += p * self.br_value(root, responder, &table, &members, &mut choice);
        }
        total
    }

    fn br_value(
        &self,
        node: usize,
        responder: Player,
        table: &[Vec<f64>],
        members: &[Vec<(usize, f64)>],
        choice: &mut Vec<Option<usize>>,
    ) -> f64 {
        match &self.nodes[node] {
            Node::Terminal(u) => u[responder],
            Node::Decision {
                player,
                infoset,
                children,
            } if *player == responder => {
                let action = match choice[*infoset] {
                    Some(a) => a,
                    None => {
                        let mut best = (f64::NEG_INFINITY, 0);
                        for a in 0..children.len() {
                            let mut sum = 0.0;
                            for &(member, weight) in &members[*infoset] {
                                let Node::Decision { children: cs, .. } = &self.nodes[member]
                                else {
                                    unreachable!()
                                };
                                sum += weight
                                    * self.br_value(cs[a], responder, table, members, choice);
                            }
                            if sum > best.0 + 1e-12 {
                                best = (sum, a);
                            }
                        }
                        choice[*infoset] = Some(best.1);
                        best.1
                    }
                };
                self.br_value(children[action], responder, table, members, choice)
            }
            Node::Decision {
                infoset, children, ..
            } => children
                .iter()
                .zip(&table[*infoset])
                .filter(|(_, p)| **p > 0.0)
                .map(|(&c, &p)| p * self.br_value(c, responder, table, members, choice))
                .sum(),
        }
    }

    /// NashConv / 2: how much, on average over the two seats, a best
    /// responder gains over the policy's own value. Zero at an equilibrium.
    pub fn exploitability(&self, policy: &Policy) -> f64 {
        let br: f64 = (0..2).map(|p| self.best_response_value(policy, p)).sum();
        let own = self.expected_returns(policy);
        (br - own[0] - own[1]) / 2.0
    }

    /// Runs `iterations` of CFR+ (regret matching+, alternating updates,
    /// linearly weighted average) and returns the average policy.
    pub fn cfr(&self, iterations: usize) -> Policy {
        let n = self.infosets.len();
        let mut regrets: Vec<Vec<f64>> = self
            .infosets
            .iter()
            .map(|i| vec![0.0; i.actions.len()])
            .collect();
        let mut averages = regrets.clone();
        let mut current = vec![Vec::new(); n];
        for t in 1..=iterations {
            for traverser in 0..2 {
                for (i, r) in regrets.iter().enumerate() {
                    current[i] = matching(r);
                }
                for &(root, p) in &self.roots {
                    self.cfr_walk(
                        root,
                        traverser,
                        [1.0, 1.0],
                        p,
                        &current,
                        &mut regrets,
                        &mut averages,
                        t as f64,
                    );
                }
            }
        }
        self.infosets
            .iter()
            .zip(&averages)
            .map(|(i, a)| {
                let sum: f64 = a.iter().sum();
                let probs = if sum > 0.0 {
                    a.iter().map(|x| x / sum).collect()
                } else {
                    vec![1.0 / a.len() as f64; a.len()]
                };
                (i.key.clone(), probs)
            })
            .collect()
    }

    #[allow(clippy::too_many_arguments)]
    fn cfr_walk(
        &self,
        node: usize,
        traverser: Player,
        reach: [f64; 2],
        chance: f64,
        current: &[Vec<f64>],
        regrets: &mut [Vec<f64>],
        averages: &mut [Vec<f64>],
        weight: f64,
    ) -> f64 {
        match &self.nodes[node] {
            Node::Terminal(u) => u[traverser],
            Node::Decision {
                player,
                infoset,
                children,
            } => {
                let strategy = &current[*infoset];
                let mut values = vec![0.0; children.len()];
                let mut node_value = 0.0;
                for (a, &child) in children.iter().enumerate() {
                    let mut r = reach;
                    r[*player] *= strategy[a];
                    if *player != traverser && r[*player] == 0.0 {
                        continue;
                    }
                    values[a] = self.cfr_walk(
                        child, traverser, r, chance, current, regrets, averages, weight,
                    );
                    node_value += strategy[a] * values[a];
                }
                if *player == traverser {
                    let counterfactual = chance * reach[1 - traverser];
                    for a in 0..children.len() {
                        let regret =
                            regrets[*infoset][a] + counterfactual * (values[a] - node_value);
                        regrets[*infoset][a] = regret.max(0.0);
                        averages[*infoset][a] += weight * chance * reach[traverser] * strategy[a];
                    }
                }
                node_value
            }
        }
    }
}

fn matching(regrets: &[f64]) -> Vec<f64> {
    let sum: f64 = regrets.iter().sum();
    if sum > 0.0 {
        regrets.iter().map(|r| r / sum).collect()
    } else {
        vec![1.0 / regrets.len() as f64; regrets.len()]
    }
}
