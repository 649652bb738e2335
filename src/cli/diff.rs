//! A unified diff of two texts by lines (Myers' algorithm on what is left
//! after the common head and tail), for `check --diff`. Lines keep their
//! line breaks, so a CRLF file's diff shows CRLF lines.

/// One line of the edit script: kept, removed (index into the old lines)
/// or added (index into the new).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Keep(usize, usize),
    Del(usize),
    Add(usize),
}

/// The most differences Myers' search looks for before it gives up and
/// replaces the whole middle (a bound on time and memory).
const MAX_D: usize = 2000;

fn script(a: &[&str], b: &[&str]) -> Vec<Op> {
    let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (ma, mb) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    let mut ops: Vec<Op> = (0..head).map(|i| Op::Keep(i, i)).collect();
    let middle = myers(ma, mb).unwrap_or_else(|| {
        (0..ma.len())
            .map(Op::Del)
            .chain((0..mb.len()).map(Op::Add))
            .collect()
    });
    ops.extend(middle.into_iter().map(|op| match op {
        Op::Keep(i, j) => Op::Keep(i + head, j + head),
        Op::Del(i) => Op::Del(i + head),
        Op::Add(j) => Op::Add(j + head),
    }));
    let (ea, eb) = (a.len() - tail, b.len() - tail);
    ops.extend((0..tail).map(|k| Op::Keep(ea + k, eb + k)));
    ops
}

/// The shortest edit script, or `None` past [`MAX_D`] differences.
fn myers(a: &[&str], b: &[&str]) -> Option<Vec<Op>> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    let max = (n + m) as usize;
    let off = max as isize + 1;
    let mut v = vec![0isize; 2 * max + 3];
    let mut trace: Vec<Vec<isize>> = Vec::new();
    let mut found = None;
    'search: for d in 0..=max.min(MAX_D) as isize {
        trace.push(v.clone());
        let mut k = -d;
        while k <= d {
            let i = (off + k) as usize;
            let mut x = if k == -d || (k != d && v[i - 1] < v[i + 1]) {
                v[i + 1]
            } else {
                v[i - 1] + 1
            };
            let mut y = x - k;
            while x < n && y < m && a[x as usize] == b[y as usize] {
                x += 1;
                y += 1;
            }
            v[i] = x;
            if x >= n && y >= m {
                found = Some(d);
                break 'search;
            }
            k += 2;
        }
    }
    let d_end = found?;
    let mut ops = Vec::new();
    let (mut x, mut y) = (n, m);
    for d in (0..=d_end).rev() {
        let v = &trace[d as usize];
        let k = x - y;
        let i = (off + k) as usize;
        let prev_k = if k == -d || (k != d && v[i - 1] < v[i + 1]) {
            k + 1
        } else {
            k - 1
        };
        let prev_x = v[(off + prev_k) as usize];
        let prev_y = prev_x - prev_k;
        while x > prev_x && y > prev_y {
            ops.push(Op::Keep((x - 1) as usize, (y - 1) as usize));
            x -= 1;
            y -= 1;
        }
        if d > 0 {
            if x == prev_x {
                ops.push(Op::Add((y - 1) as usize));
            } else {
                ops.push(Op::Del((x - 1) as usize));
            }
        }
        x = prev_x;
        y = prev_y;
    }
    ops.reverse();
    Some(ops)
}

/// Lines of context around each change.
const CONTEXT: usize = 3;

/// `line` as a diff line after `mark`, with a note when it has no line
/// break.
fn push_line(out: &mut String, mark: char, line: &str) {
    out.push(mark);
    out.push_str(line);
    if !line.ends_with('\n') {
        out.push_str("\n\\ No newline at end of file\n");
    }
}

/// The unified diff of `old` and `new` (empty when they are equal).
pub(super) fn unified(old: &str, new: &str, old_name: &str, new_name: &str) -> String {
    if old == new {
        return String::new();
    }
    let a: Vec<&str> = old.split_inclusive('\n').collect();
    let b: Vec<&str> = new.split_inclusive('\n').collect();
    let ops = script(&a, &b);
    let changed: Vec<usize> = ops
        .iter()
        .enumerate()
        .filter(|(_, op)| !matches!(op, Op::Keep(..)))
        .map(|(i, _)| i)
        .collect();
    let mut out = format!("--- {old_name}\n+++ {new_name}\n");
    let mut g = 0;
    while g < changed.len() {
        // A hunk: changes closer than twice the context join.
        let first = changed[g];
        let mut last = first;
        while g + 1 < changed.len() && changed[g + 1] - last <= 2 * CONTEXT + 1 {
            g += 1;
            last = changed[g];
        }
        g += 1;
        let start = first.saturating_sub(CONTEXT);
        let end = (last + CONTEXT + 1).min(ops.len());
        let hunk = &ops[start..end];
        // Where the hunk starts in each text: the first line it shows
        // (or, when it shows none of that text, the line before).
        let pos = |old_side: bool| -> usize {
            ops[..start]
                .iter()
                .filter(|op| match op {
                    Op::Keep(..) => true,
                    Op::Del(_) => old_side,
                    Op::Add(_) => !old_side,
                })
                .count()
        };
        let len_a = hunk.iter().filter(|op| !matches!(op, Op::Add(_))).count();
        let len_b = hunk.iter().filter(|op| !matches!(op, Op::Del(_))).count();
        let (sa, sb) = (pos(true), pos(false));
        let at = |s: usize, len: usize| if len == 0 { s } else { s + 1 };
        out.push_str(&format!(
            "@@ -{},{len_a} +{},{len_b} @@\n",
            at(sa, len_a),
            at(sb, len_b)
        ));
        for op in hunk {
            match *op {
                Op::Keep(i, _) => push_line(&mut out, ' ', a[i]),
                Op::Del(i) => push_line(&mut out, '-', a[i]),
                Op::Add(j) => push_line(&mut out, '+', b[j]),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::unified;

    #[test]
    fn one_line_added() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\n";
        let new = "a\nb\nc\nd\nd2\ne\nf\ng\nh\n";
        assert_eq!(
            unified(old, new, "a/x", "b/x"),
            "--- a/x\n+++ b/x\n@@ -2,6 +2,7 @@\n b\n c\n d\n+d2\n e\n f\n g\n"
        );
    }

    #[test]
    fn separate_hunks_and_crlf() {
        let old: String = (0..20).map(|i| format!("l{i}\r\n")).collect();
        let new = old.replace("l2\r\n", "L2\r\n").replace("l17\r\n", "");
        assert_eq!(
            unified(&old, &new, "a", "b"),
            "--- a\n+++ b\n@@ -1,6 +1,6 @@\n l0\r\n l1\r\n-l2\r\n+L2\r\n l3\r\n l4\r\n l5\r\n@@ -15,6 +15,5 @@\n l14\r\n l15\r\n l16\r\n-l17\r\n l18\r\n l19\r\n"
        );
    }

    #[test]
    fn no_newline_at_end_and_equal_texts() {
        assert_eq!(unified("x", "x", "a", "b"), "");
        assert_eq!(
            unified("x", "y", "a", "b"),
            "--- a\n+++ b\n@@ -1,1 +1,1 @@\n-x\n\\ No newline at end of file\n+y\n\\ No newline at end of file\n"
        );
        assert_eq!(
            unified("", "y\n", "a", "b"),
            "--- a\n+++ b\n@@ -0,0 +1,1 @@\n+y\n"
        );
    }
}
