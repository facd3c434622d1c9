//! Okapi BM25 over a small in-memory corpus (k1 = 1.2, b = 0.75).

use std::collections::BTreeMap;

const K1: f64 = 1.2;
const B: f64 = 0.75;

/// Lowercase alphanumeric tokens.
pub fn tokens(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(str::to_lowercase)
}

/// Term frequencies per document and document frequencies per term.
#[derive(Clone, Debug, Default)]
pub struct Index {
    docs: Vec<(BTreeMap<String, u32>, usize)>,
    df: BTreeMap<String, u32>,
    avg_len: f64,
}

impl Index {
    pub fn new<'a>(texts: impl Iterator<Item = &'a str>) -> Self {
        let mut index = Index::default();
        for text in texts {
            let mut tf = BTreeMap::new();
            let mut len = 0;
            for t in tokens(text) {
                *tf.entry(t).or_insert(0) += 1;
                len += 1;
            }
            for t in tf.keys() {
                *index.df.entry(t.clone()).or_insert(0) += 1;
            }
            index.docs.push((tf, len));
        }
        let total: usize = index.docs.iter().map(|(_, l)| l).sum();
        index.avg_len = total as f64 / index.docs.len().max(1) as f64;
        index
    }

    /// Documents with a positive score, best first (ties by index), at most `k`.
    pub fn search(&self, query: &str, k: usize) -> Vec<(usize, f64)> {
        let mut terms: Vec<String> = tokens(query).collect();
        terms.sort();
        terms.dedup();
        let n = self.docs.len() as f64;
        let mut scored: Vec<(usize, f64)> = self
            .docs
            .iter()
            .enumerate()
            .map(|(i, (tf, len))| {
                let score = terms
                    .iter()
                    .filter_map(|t| {
                        let f = f64::from(*tf.get(t)?);
                        let df = f64::from(self.df[t]);
                        let idf = ((n - df + 0.5) / (df + 0.5) + 1.0).ln();
                        Some(
                            idf * f * (K1 + 1.0)
                                / (f + K1 * (1.0 - B + B * *len as f64 / self.avg_len)),
                        )
                    })
                    .sum::<f64>();
                (i, score)
            })
            .filter(|(_, s)| *s > 0.0)
            .collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        scored.truncate(k);
        scored
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rare_terms_and_short_documents_rank_first() {
        let docs = [
            "the cat sat on the mat",
            "the dog",
            "a cat and a cat and a dog and more words here",
        ];
        let index = Index::new(docs.iter().copied());
        let ranked: Vec<usize> = index.search("cat", 5).iter().map(|(i, _)| *i).collect();
        assert_eq!(ranked, vec![2, 0]);
        assert_eq!(index.search("dog", 1)[0].0, 1);
        assert!(index.search("zebra", 5).is_empty());
        let s = index.search("the dog", 3);
        assert!(s[0].0 == 1 && (s[0].1 - 1.3172).abs() < 1e-3, "{s:?}");
    }
}
