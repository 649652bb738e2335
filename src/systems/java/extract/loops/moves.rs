//! What makes a pass of a loop try something else than the call that
//! failed: a referral, failover to another node, port or location, a
//! changed input, a repair, one more try after a fix. A loop that calls the
//! same target again with the same inputs is a retry; these are not.

use super::*;

/// Whether a catch clause moves on to something else rather than trying
/// again: it catches a referral or redirect, assigns the caught exception
/// to a variable the loop reads, or assigns a computed value to a variable
/// the try block uses (the next candidate).
pub(super) fn follows_next(ctx: &Ctx<'_>, c: Node<'_>, try_block: Node<'_>) -> bool {
    let types = catch_types(ctx, c);
    // "Already exists" going round: the next pass takes another name.
    if types
        .iter()
        .any(|(t, _)| t.contains("Referral") || t.contains("Redirect"))
        || (!types.is_empty() && types.iter().all(|(t, _)| t.contains("Exists")))
    {
        return true;
    }
    let param = ctx
        .named_children(c)
        .into_iter()
        .find(|p| p.kind_str() == "catch_formal_parameter")
        .and_then(|p| field(p, "name"))
        .map(|n| ctx.text(n));
    let Some(body) = field(c, "body") else {
        return false;
    };
    // Failing over: the failed node is excluded or marked dead (here, in a
    // method of this class the catch calls, or by the tried call itself),
    // the next port is taken, or the failed target is dropped and the try
    // asks a method that searches candidates for the next one. A loop that
    // calls the same target again is a retry; one that moves on is not.
    let moves_on = ctx.descendants_until(body, nested).into_iter().any(|d| {
        d.kind_str() == "update_expression" && ctx.text(d).to_ascii_lowercase().contains("port")
    }) || helpers::calls_marking_failed(ctx, body)
        || helpers::calls_marking_failed(ctx, try_block)
        || drops_picked_target(ctx, body, try_block)
        || round_robin(ctx, try_block);
    if moves_on
        || changes_input(ctx, body, try_block)
        || once_after_fix(ctx, body)
        || drops_corrupt_item(ctx, &types, body, try_block)
    {
        return true;
    }
    // Repairing the cause and trying again is not a retry of a transient
    // failure: a missing parent created after `NoNodeException`, or a call
    // handed what the exception carries (`split(e.segment, ..)`).
    let missing = types.iter().any(|(t, _)| {
        let t = ast::last_segment(t);
        t.contains("NoNode") || t.contains("NotFound") || t.contains("NoSuch")
    });
    let repairs = ctx.descendants_until(body, nested).into_iter().any(|d| {
        if d.kind_str() != "method_invocation" {
            return false;
        }
        let name = field(d, "name").map_or("", |n| ctx.text(n));
        let lname = name.to_ascii_lowercase();
        let creates = lname.contains("create") || lname.contains("mkdir");
        let uses_failure = param.is_some_and(|p| {
            field(d, "arguments").is_some_and(|a| {
                ctx.named_children(a).into_iter().any(|x| {
                    x.kind_str() == "field_access"
                        && field(x, "object").is_some_and(|o| ctx.text(o) == p)
                })
            })
        });
        (missing && creates) || uses_failure
    });
    if repairs {
        return true;
    }
    for d in ctx.descendants_until(body, nested) {
        if d.kind_str() != "assignment_expression"
            || field(d, "operator").is_none_or(|o| ctx.text(o) != "=")
        {
            continue;
        }
        let (Some(l), Some(r)) = (field(d, "left"), field(d, "right")) else {
            continue;
        };
        let r = ast::unwrap_expr(r);
        if l.kind_str() != "identifier" {
            continue;
        }
        let name = ctx.text(l);
        if param.is_some_and(|p| ctx.text(r) == p) {
            // `e = re`: the exception drives the next pass when the loop
            // reads it outside this catch.
            let loop_reads = ctx.ancestor(c, LOOPS).is_some_and(|lp| {
                ctx.descendants(lp).into_iter().any(|x| {
                    x.kind_str() == "identifier"
                        && ctx.text(x) == name
                        && !ast::within(x, c)
                        && ctx.parent(x).is_some_and(|p| {
                            // Storing it, testing it for `null` (did the
                            // call fail?) or throwing it does not steer.
                            let passive = matches!(
                                p.kind_str(),
                                "assignment_expression" | "throw_statement" | "variable_declarator"
                            ) || (p.kind_str() == "binary_expression"
                                && compares_with_null(ctx, p));
                            !passive
                        })
                })
            });
            if loop_reads {
                return true;
            }
            continue;
        }
        let computed = matches!(
            r.kind_str(),
            "method_invocation" | "field_access" | "identifier" | "array_access"
        );
        if computed && mentions(ctx, try_block, name) {
            return true;
        }
        // A setting the try hands the call switched off or changed
        // (`scalarReplace = false;` before `merge(.., scalarReplace)`), or
        // a scope dropped (`tenantId = null;` before
        // `getTable(new Key(tenantId, name))`): the next pass is a
        // fallback, not the same call.
        if matches!(
            r.kind_str(),
            "true" | "false" | "decimal_integer_literal" | "string_literal" | "null_literal"
        ) && handed_to_call(ctx, try_block, name)
            // `conn = null;` that the try fills again (`if (conn == null)
            // conn = connect();`) is a reconnect: the same call again.
            && !(r.kind_str() == "null_literal" && assigned_in(ctx, try_block, name))
        {
            return true;
        }
    }
    false
}

/// Calls whose arguments only say what happened (logging, formatting).
fn reports(name: &str) -> bool {
    matches!(
        name,
        "debug"
            | "info"
            | "warn"
            | "error"
            | "trace"
            | "log"
            | "format"
            | "println"
            | "printf"
            | "attr"
            | "append"
            | "valueOf"
            | "toString"
    )
}

/// The catch steps a variable the try block hands to a call
/// (`actualEnsembleSize--` before `newEnsemble(actualEnsembleSize, ..)`):
/// each pass asks for something else (a smaller ensemble, the next
/// offset), it does not try the same call again.
fn changes_input(ctx: &Ctx<'_>, catch_body: Node<'_>, try_block: Node<'_>) -> bool {
    let stepped: Vec<&str> = ctx
        .descendants_until(catch_body, nested)
        .into_iter()
        .filter_map(|d| match d.kind_str() {
            "update_expression" => ctx
                .named_children(d)
                .first()
                .filter(|i| i.kind_str() == "identifier")
                .map(|i| ctx.text(*i)),
            "assignment_expression"
                if field(d, "operator")
                    .is_some_and(|o| matches!(ctx.text(o), "-=" | "+=" | "*=" | "/=")) =>
            {
                field(d, "left")
                    .filter(|l| l.kind_str() == "identifier")
                    .map(|l| ctx.text(l))
            }
            _ => None,
        })
        .collect();
    if stepped.is_empty() {
        return false;
    }
    // And what the loop computes from them (`int newSize = base + step;`).
    let mut stepped = stepped;
    if let Some(lp) = ctx.ancestor(catch_body, LOOPS)
        && let Some(body) = field(lp, "body")
    {
        for d in own_nodes(ctx, body) {
            if d.kind_str() == "variable_declarator"
                && let (Some(n), Some(v)) = (field(d, "name"), field(d, "value"))
                && ctx
                    .descendants(v)
                    .into_iter()
                    .any(|i| i.kind_str() == "identifier" && stepped.contains(&ctx.text(i)))
            {
                stepped.push(ctx.text(n));
            }
        }
    }
    ctx.descendants_until(try_block, nested)
        .into_iter()
        .any(|d| {
            d.kind_str() == "method_invocation"
                && !field(d, "name").is_some_and(|n| reports(ctx.text(n)))
                && field(d, "arguments").is_some_and(|a| {
                    ctx.named_children(a).into_iter().any(|x| {
                        ctx.descendants(x)
                            .into_iter()
                            .any(|i| i.kind_str() == "identifier" && stepped.contains(&ctx.text(i)))
                    })
                })
        })
}

/// The catch drops the target the try block called (`local.close()`,
/// `local = null`), and the try block takes that target from a method of
/// this class that searches candidates (`local = getClient()`, where
/// `getNextClient()` walks the hosts): the next pass calls another one.
fn drops_picked_target(ctx: &Ctx<'_>, catch_body: Node<'_>, try_block: Node<'_>) -> bool {
    let dropped: Vec<&str> = ctx
        .descendants_until(catch_body, nested)
        .into_iter()
        .filter_map(|d| match d.kind_str() {
            "method_invocation"
                if field(d, "name").is_some_and(|n| {
                    matches!(ctx.text(n), "close" | "shutdown" | "disconnect" | "release")
                }) =>
            {
                field(d, "object")
                    .filter(|o| o.kind_str() == "identifier")
                    .map(|o| ctx.text(o))
            }
            "assignment_expression"
                if field(d, "right").is_some_and(|r| r.kind_str() == "null_literal") =>
            {
                field(d, "left")
                    .filter(|l| l.kind_str() == "identifier")
                    .map(|l| ctx.text(l))
            }
            _ => None,
        })
        .collect();
    if dropped.is_empty() {
        return false;
    }
    ctx.descendants_until(try_block, nested)
        .into_iter()
        .any(|d| {
            let (name, value) = match d.kind_str() {
                "assignment_expression" => (field(d, "left"), field(d, "right")),
                "variable_declarator" => (field(d, "name"), field(d, "value")),
                _ => return false,
            };
            name.is_some_and(|n| dropped.contains(&ctx.text(n)))
                && value.map(ast::unwrap_expr).is_some_and(|v| {
                    v.kind_str() == "method_invocation" && helpers::picks_next(ctx, v)
                })
        })
}

/// One more try after a repair, guarded by a flag: `if (!selected) {
/// selectNow(); selected = true; } else { throw e; }`.
fn once_after_fix(ctx: &Ctx<'_>, catch_body: Node<'_>) -> bool {
    ctx.descendants_until(catch_body, nested)
        .into_iter()
        .any(|d| {
            if d.kind_str() != "if_statement" {
                return false;
            }
            let Some(c) = field(d, "condition").map(ast::unwrap_expr) else {
                return false;
            };
            let flag = if c.kind_str() == "unary_expression" && ctx.text(c).starts_with('!') {
                ctx.named_children(c)
                    .first()
                    .map(|x| ctx.text(ast::unwrap_expr(*x)))
            } else {
                None
            };
            let Some(flag) = flag else { return false };
            let sets = field(d, "consequence").is_some_and(|b| {
                ctx.descendants(b).into_iter().any(|x| {
                    x.kind_str() == "assignment_expression"
                        && field(x, "left").is_some_and(|l| ctx.text(l) == flag)
                        && field(x, "right").is_some_and(|r| ctx.text(r) == "true")
                })
            });
            let else_leaves = field(d, "alternative").is_some_and(|a| {
                let a = if a.kind_str() == "else" {
                    ctx.named_children(a).first().copied().unwrap_or(a)
                } else {
                    a
                };
                statements(a).iter().any(|s| helpers::leaves(ctx, *s))
            });
            sets && else_leaves
        })
}

/// Whether the pass picks its target round-robin before the `try`
/// (`nodes.get((counter.getAndIncrement() & MAX) % nodeCount)`): each pass
/// asks the next node, failover over a list (tubemq's
/// `RpcServiceFailoverInvoker`).
fn round_robin(ctx: &Ctx<'_>, try_block: Node<'_>) -> bool {
    let Some(body) = ctx
        .parent(try_block)
        .and_then(|t| ctx.parent(t))
        .filter(|b| b.kind_str() == "block")
    else {
        return false;
    };
    ctx.descendants_until(body, nested).into_iter().any(|d| {
        d.kind_str() == "binary_expression"
            && d.start_byte() < try_block.start_byte()
            && field(d, "operator").is_some_and(|o| ctx.text(o) == "%")
            && field(d, "left").is_some_and(|l| {
                let t = ctx.text(l);
                t.contains("getAndIncrement()")
                    || t.contains("incrementAndGet()")
                    || t.contains("++")
            })
    })
}

/// The try block hands a call a variable the loop advances by a value it
/// read (`offset += result.lastReadOffset`, `page = resp.nextPage`): each
/// pass reads on from where the last one stopped, a scan (apache/inlong
/// tubemq `BrokerAdminServlet.queryGroupStoredOffsets`). A counter stepped
/// by a constant (`attempt++`, `i += 1`) is no such input.
pub(super) fn advances_input(ctx: &Ctx<'_>, own: &[Node<'_>], try_block: Node<'_>) -> bool {
    let advanced: Vec<&str> = own
        .iter()
        .filter(|d| d.kind_str() == "assignment_expression" && !ast::within(**d, try_block))
        .filter(|d| {
            field(**d, "operator").is_some_and(|o| matches!(ctx.text(o), "+=" | "-="))
                && field(**d, "right").is_some_and(|r| {
                    let r = ast::unwrap_expr(r);
                    ctx.int(r).is_none()
                        && matches!(r.kind_str(), "field_access" | "method_invocation")
                })
        })
        .filter_map(|d| field(*d, "left").filter(|l| l.kind_str() == "identifier"))
        .map(|l| ctx.text(l))
        .collect();
    if advanced.is_empty() {
        return false;
    }
    ctx.descendants_until(try_block, nested)
        .into_iter()
        .any(|d| {
            d.kind_str() == "method_invocation"
                && !field(d, "name").is_some_and(|n| reports(ctx.text(n)))
                && field(d, "arguments").is_some_and(|a| {
                    ctx.named_children(a)
                        .into_iter()
                        .any(|x| x.kind_str() == "identifier" && advanced.contains(&ctx.text(x)))
                })
        })
}

/// Only a corrupt or malformed item goes round and the catch removes what
/// the try read (`removeAndDeleteSnapshot(snapshot.offset)`): the next pass
/// reads another item (apache/fluss WriterStateManager.loadFromSnapshot).
/// A corrupt item is not a transient failure, and it is not read again.
fn drops_corrupt_item(
    ctx: &Ctx<'_>,
    types: &[(String, Span)],
    catch_body: Node<'_>,
    try_block: Node<'_>,
) -> bool {
    if types.is_empty()
        || !types.iter().all(|(t, _)| {
            let t = ast::last_segment(t);
            t.contains("Corrupt") || t.contains("Malformed")
        })
    {
        return false;
    }
    ctx.descendants_until(catch_body, nested)
        .into_iter()
        .any(|d| {
            d.kind_str() == "method_invocation"
                && field(d, "name").is_some_and(|n| {
                    let l = ctx.text(n).to_ascii_lowercase();
                    ["remove", "delete", "drop", "discard", "quarantine"]
                        .iter()
                        .any(|w| l.starts_with(w))
                })
                && field(d, "arguments").is_some_and(|a| {
                    ctx.descendants(a).into_iter().any(|x| {
                        x.kind_str() == "identifier" && mentions(ctx, try_block, ctx.text(x))
                    })
                })
        })
}

/// Only an authentication failure goes round and the catch logs in or out
/// again or refreshes its credentials (`loginContext.logout()`,
/// `relogin()`, `refreshToken()`): the next pass asks with a new identity,
/// a repair (apache/amoro AmsThriftUrl, the Kerberos login of the thread).
/// A loop whose other catches retry is still a retry of those failures.
pub(super) fn authenticates_again(ctx: &Ctx<'_>, c: Node<'_>) -> bool {
    let types = catch_types(ctx, c);
    let Some(catch_body) = field(c, "body") else {
        return false;
    };
    if types.is_empty()
        || !types
            .iter()
            .all(|(t, _)| ast::last_segment(t).contains("Auth"))
    {
        return false;
    }
    ctx.descendants_until(catch_body, nested)
        .into_iter()
        .any(|d| {
            d.kind_str() == "method_invocation"
                && field(d, "name").is_some_and(|n| {
                    let l = ctx.text(n).to_ascii_lowercase();
                    ["login", "logout", "reauth", "authenticate"]
                        .iter()
                        .any(|w| l.contains(w))
                        || (l.starts_with("refresh")
                            && (l.contains("token") || l.contains("credential")))
                })
        })
}

/// Each pass asks for another item: the `for` counter handed to the tried
/// call (`tryGetSnapshot(snapshotId)` under `snapshotId--`), unless it
/// counts attempts; or the try returns the next record (`return
/// nextRecord(in)`) and a failure skips to the one after.
pub(super) fn walks_items(ctx: &Ctx<'_>, block: Node<'_>, counter: Option<&str>) -> bool {
    let attempts = |n: &str| {
        let l = n.to_ascii_lowercase();
        ["retr", "attempt", "tries", "try", "times", "count", "round"]
            .iter()
            .any(|w| l.contains(w))
    };
    let calls: Vec<Node<'_>> = ctx
        .descendants_until(block, nested)
        .into_iter()
        .filter(|d| {
            d.kind_str() == "method_invocation"
                && field(*d, "name").is_some_and(|n| {
                    let n = ctx.text(n);
                    !super::is_sleep_name(n) && !n.to_ascii_lowercase().contains("log")
                })
                && field(*d, "object")
                    .is_none_or(|o| !ctx.text(o).to_ascii_lowercase().contains("log"))
        })
        .collect();
    let handed = counter.filter(|c| !attempts(c)).is_some_and(|c| {
        calls.iter().any(|d| {
            field(*d, "arguments").is_some_and(|a| {
                ctx.named_children(a)
                    .into_iter()
                    .any(|x| x.kind_str() == "identifier" && ctx.text(x) == c)
            })
        })
    });
    let next_record = ctx.named_children(block).into_iter().any(|s| {
        s.kind_str() == "return_statement"
            && ctx.named_children(s).first().is_some_and(|e| {
                let e = ast::unwrap_expr(*e);
                e.kind_str() == "method_invocation"
                    && field(e, "name").is_some_and(|n| {
                        let n = ctx.text(n);
                        let l = n.to_ascii_lowercase();
                        l.starts_with("next")
                            && ![
                                "delay", "backoff", "interval", "wait", "sleep", "retry",
                                "attempt", "time",
                            ]
                            .iter()
                            .any(|w| l.contains(w))
                    })
            })
    });
    handed || next_record
}

/// The try block assigns `name` (`conn = connect();`).
fn assigned_in(ctx: &Ctx<'_>, try_block: Node<'_>, name: &str) -> bool {
    ctx.descendants_until(try_block, nested)
        .into_iter()
        .any(|d| {
            d.kind_str() == "assignment_expression"
                && field(d, "left").is_some_and(|l| ctx.text(l) == name)
        })
}

/// `name` is an argument of a call in the try block (`merge(a, name)`).
fn handed_to_call(ctx: &Ctx<'_>, try_block: Node<'_>, name: &str) -> bool {
    ctx.descendants_until(try_block, nested)
        .into_iter()
        .any(|d| {
            d.kind_str() == "method_invocation"
                && field(d, "arguments").is_some_and(|a| {
                    // Itself, or inside what the call is handed
                    // (`new Key(tenantId, name)`).
                    ctx.descendants_until(a, nested)
                        .into_iter()
                        .any(|x| x.kind_str() == "identifier" && ctx.text(x) == name)
                })
        })
}

/// A call that asks the user for input: a method named for a prompt
/// (`Credentials.prompt()`, `promptForPassword()`), `readPassword`, a
/// dialog's `showInputDialog`, or a line read from the console or standard
/// input (`console.readLine(..)`, `scanner.nextLine()` on `System.in`).
/// A loop whose pass prompts repairs its input by the user's next answer;
/// it repeats no failed call (apache/lens `LensClientSingletonWrapper`,
/// seventeenth pass).
pub(super) fn prompts_user(ctx: &Ctx<'_>, d: Node<'_>) -> bool {
    if d.kind_str() != "method_invocation" {
        return false;
    }
    let Some(name) = field(d, "name").map(|n| ctx.text(n)) else {
        return false;
    };
    let lname = name.to_ascii_lowercase();
    if lname.starts_with("prompt") || lname == "readpassword" || lname == "showinputdialog" {
        return true;
    }
    let object = field(d, "object").map_or(String::new(), |o| ctx.text(o).to_ascii_lowercase());
    matches!(lname.as_str(), "readline" | "nextline")
        && ["console", "system.in", "stdin", "scanner"]
            .iter()
            .any(|w| object.contains(w))
}
