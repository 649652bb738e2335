//! The value of a C# constant's initialiser read from text, with no
//! parse: literals, the constants declared before it in its type, `+`,
//! `-`, `*`, `/`, parentheses, and `TimeSpan.FromMilliseconds`/`Seconds`/
//! `Minutes`/`Hours`/`Days(..)` and `TimeSpan.Zero` as durations.

/// The deepest nesting read.
const MAX_DEPTH: usize = 16;

/// `text`'s value and whether it is a `TimeSpan` (then in seconds);
/// `known` gives the value of a name. `None` for anything else (a call,
/// a cast, a name not known, a number over a duration).
pub fn expression(text: &str, known: &dyn Fn(&str) -> Option<(f64, bool)>) -> Option<(f64, bool)> {
    let mut p = Parser {
        s: text.as_bytes(),
        at: 0,
        known,
    };
    let v = p.sum(0)?;
    p.space();
    (p.at == p.s.len() && v.0.is_finite()).then_some(v)
}

struct Parser<'a> {
    s: &'a [u8],
    at: usize,
    known: &'a dyn Fn(&str) -> Option<(f64, bool)>,
}

impl Parser<'_> {
    fn space(&mut self) {
        while self.s.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.space();
        if self.s.get(self.at) == Some(&c) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn sum(&mut self, depth: usize) -> Option<(f64, bool)> {
        let mut l = self.product(depth)?;
        loop {
            let op = if self.eat(b'+') {
                b'+'
            } else if self.eat(b'-') {
                b'-'
            } else {
                return Some(l);
            };
            let r = self.product(depth)?;
            if l.1 != r.1 {
                return None;
            }
            l.0 = if op == b'+' { l.0 + r.0 } else { l.0 - r.0 };
        }
    }

    fn product(&mut self, depth: usize) -> Option<(f64, bool)> {
        let mut l = self.factor(depth)?;
        loop {
            let op = if self.eat(b'*') {
                b'*'
            } else if self.eat(b'/') {
                b'/'
            } else {
                return Some(l);
            };
            let r = self.factor(depth)?;
            l = match (op, l, r) {
                (b'*', (a, sa), (b, sb)) if !(sa && sb) => (a * b, sa || sb),
                (b'/', (a, sa), (b, false)) if b != 0.0 => (a / b, sa),
                _ => return None,
            };
        }
    }

    fn factor(&mut self, depth: usize) -> Option<(f64, bool)> {
        if depth > MAX_DEPTH {
            return None;
        }
        let d = depth + 1;
        if self.eat(b'-') {
            let (v, s) = self.factor(d)?;
            return Some((-v, s));
        }
        if self.eat(b'(') {
            let v = self.sum(d)?;
            return self.eat(b')').then_some(v);
        }
        self.space();
        let start = self.at;
        let c = *self.s.get(self.at)?;
        if c.is_ascii_digit() || c == b'.' {
            while self
                .s
                .get(self.at)
                .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_'))
            {
                self.at += 1;
            }
            let t = std::str::from_utf8(&self.s[start..self.at]).ok()?;
            return super::number(t).map(|v| (v, false));
        }
        while self
            .s
            .get(self.at)
            .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_'))
        {
            self.at += 1;
        }
        let name = std::str::from_utf8(&self.s[start..self.at]).ok()?;
        let name = name.strip_prefix("System.").unwrap_or(name);
        if name.is_empty() {
            return None;
        }
        if name == "TimeSpan.Zero" {
            return Some((0.0, true));
        }
        let unit = match name {
            "TimeSpan.FromMilliseconds" => Some(0.001),
            "TimeSpan.FromSeconds" => Some(1.0),
            "TimeSpan.FromMinutes" => Some(60.0),
            "TimeSpan.FromHours" => Some(3600.0),
            "TimeSpan.FromDays" => Some(86400.0),
            _ => None,
        };
        if let Some(unit) = unit {
            if !self.eat(b'(') {
                return None;
            }
            let (v, secs) = self.sum(d)?;
            if secs || !self.eat(b')') {
                return None;
            }
            return Some((v * unit, true));
        }
        (self.known)(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constant_expressions_are_evaluated() {
        let known = |n: &str| match n {
            "Rounds" => Some((3.0, false)),
            "Base" => Some((2.0, true)),
            _ => None,
        };
        assert_eq!(expression("3 * 2", &known), Some((6.0, false)));
        assert_eq!(expression("Rounds * (1 + 1)", &known), Some((6.0, false)));
        assert_eq!(expression("5 * 60", &known), Some((300.0, false)));
        assert_eq!(expression("-1", &known), Some((-1.0, false)));
        assert_eq!(expression("2.5d", &known), Some((2.5, false)));
        assert_eq!(
            expression("TimeSpan.FromSeconds(Rounds)", &known),
            Some((3.0, true))
        );
        assert_eq!(
            expression("TimeSpan.FromMilliseconds(500)", &known),
            Some((0.5, true))
        );
        assert_eq!(expression("Base * 2", &known), Some((4.0, true)));
        assert_eq!(expression("TimeSpan.Zero", &known), Some((0.0, true)));
        assert_eq!(expression("Base + 1", &known), None);
        assert_eq!(expression("Other * 2", &known), None);
        assert_eq!(expression("GetCount()", &known), None);
        assert_eq!(expression("1 / 0", &known), None);
        assert_eq!(expression("3 3", &known), None);
    }
}
