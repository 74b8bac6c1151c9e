//! A hand-made document for the viewer's tests: plain text blocks wrapped
//! naively, with turns, tool cards, reasoning and code lines that never wrap.

use std::cell::Cell;
use std::hash::{DefaultHasher, Hash, Hasher};

use ratatui::text::Line;

use super::blocks::{
    Attention, BlockClass, Blocks, EarlierAmount, EarlierTurns, Follow, Landmark, LiveState, ReadError,
    Replaying,
};

/// One block of the test document.
#[derive(Debug, Clone, Hash)]
pub struct TestBlock {
    /// Identity.
    pub key: u32,
    /// Turn.
    pub turn: usize,
    /// Kind.
    pub class: ClassTag,
    /// Text, wrapped at the width (the first line is a card's header).
    pub text: String,
    /// Lines drawn unwrapped (code).
    pub code: Vec<String>,
}

/// [`BlockClass`] with `Hash`, for revisions.
#[derive(Debug, Clone, Copy, Hash, PartialEq, Eq)]
pub enum ClassTag {
    /// A tool card.
    Card,
    /// Reasoning.
    Reasoning,
    /// Anything else.
    Text,
}

/// The test document.
#[derive(Debug, Default)]
pub struct TestDoc {
    /// Every block of every view.
    pub all: Vec<TestBlock>,
    /// Blocks of the current view (indices into `all`).
    shown: Vec<usize>,
    /// Title.
    pub title: String,
    /// Event count.
    pub events: usize,
    /// 0 terminal, 1 user, 2 raw.
    view: usize,
    /// Last state given by an update.
    pub live: LiveState,
    /// The next tick finds the conversation finished.
    pub lock_released: bool,
    /// How many times a block was laid out.
    pub layouts: Cell<usize>,
    /// The leading turns not read yet (a conversation opened at its end),
    /// each its blocks, oldest first.
    pub unread: Vec<Vec<TestBlock>>,
    /// How many turns one [`EarlierAmount::Step`] reads.
    pub step: usize,
    /// The next read of earlier turns fails with this note.
    pub unreadable: Option<String>,
    /// How many reads of earlier turns were asked.
    pub reads: usize,
    /// How many steps of a proof are still to come ([`Follow::prove`]):
    /// each changes nothing.
    pub proof_steps: usize,
}

impl TestBlock {
    /// A block.
    pub fn new(key: u32, turn: usize, class: ClassTag, text: &str) -> Self {
        TestBlock {
            key,
            turn,
            class,
            text: text.to_string(),
            code: Vec::new(),
        }
    }

    /// With unwrapped code lines.
    pub fn code(mut self, lines: &[&str]) -> Self {
        self.code = lines.iter().map(|s| s.to_string()).collect();
        self
    }
}

impl TestDoc {
    /// A document of `blocks`.
    pub fn new(title: &str, blocks: Vec<TestBlock>) -> Self {
        let mut doc = TestDoc {
            title: title.to_string(),
            events: blocks.len(),
            ..TestDoc::default()
        };
        doc.set(blocks);
        doc
    }

    /// A conversation of `turns` turns, each a rule, a question, reasoning,
    /// a tool card with a long result and a code line, and an answer.
    pub fn turns(turns: usize) -> Self {
        TestDoc::new("Fixing the parser", turn_blocks(1..turns + 1))
    }

    /// [`TestDoc::turns`] opened at its end: only the last `read` turns
    /// have blocks, the others are read `step` at a time for a key that
    /// needs them all (one at a time as the view comes near them).
    pub fn at_end(turns: usize, read: usize, step: usize) -> Self {
        let first = turns - read + 1;
        let mut doc = TestDoc::new("Fixing the parser", turn_blocks(first..turns + 1));
        doc.events = turns * 5;
        doc.unread = (1..first).map(|t| turn_blocks(t..t + 1)).collect();
        doc.step = step;
        doc
    }

    fn set(&mut self, blocks: Vec<TestBlock>) {
        self.all = blocks;
        self.shown = (0..self.all.len())
            .filter(|&i| self.view != 1 || self.all[i].class == ClassTag::Text)
            .collect();
    }

    fn block(&self, i: usize) -> &TestBlock {
        &self.all[self.shown[i]]
    }
}

/// The blocks of turns `range` as [`TestDoc::turns`] makes them.
pub fn turn_blocks(range: std::ops::Range<usize>) -> Vec<TestBlock> {
    let mut blocks = Vec::new();
    for t in range {
        let k = t as u32 * 10;
        blocks.push(TestBlock::new(
            k,
            t,
            ClassTag::Text,
            &format!("── turn {t} ──"),
        ));
        blocks.push(TestBlock::new(
            k + 1,
            t,
            ClassTag::Text,
            &format!("you: question number {t}, please look at the parser"),
        ));
        blocks.push(TestBlock::new(
            k + 2,
            t,
            ClassTag::Reasoning,
            &format!("thinking about turn {t}"),
        ));
        let result: Vec<String> = (1..=6)
            .map(|n| format!("result line {n} of call {t}"))
            .collect();
        blocks.push(
            TestBlock::new(k + 3, t, ClassTag::Card, &format!("fs_read_file {t}\n{}", result.join("\n")))
                .code(&[&format!("let answer_{t} = compute(\"a very long line of code that never wraps at all, not even at forty columns\");")]),
        );
        blocks.push(TestBlock::new(
            k + 4,
            t,
            ClassTag::Text,
            &format!(
                "assistant: the answer to question {t} is that the parser drops the last token before the closing brace"
            ),
        ));
    }
    blocks
}

fn wrap(text: &str, width: usize, prefix: &str) -> Vec<String> {
    let width = width.saturating_sub(prefix.len()).max(1);
    let mut out = Vec::new();
    for para in text.lines() {
        let mut line = String::new();
        for word in para.split(' ') {
            let mut word = word.to_string();
            while word.chars().count() > width {
                if !line.is_empty() {
                    out.push(std::mem::take(&mut line));
                }
                let head: String = word.chars().take(width).collect();
                word = word.chars().skip(width).collect();
                out.push(head);
            }
            if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
                out.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&word);
        }
        out.push(line);
    }
    out.into_iter().map(|l| format!("{prefix}{l}")).collect()
}

impl Blocks for TestDoc {
    type Key = u32;

    fn len(&self) -> usize {
        self.shown.len()
    }

    fn key(&self, i: usize) -> u32 {
        self.block(i).key
    }

    fn revision(&self, i: usize) -> u64 {
        let mut h = DefaultHasher::new();
        self.block(i).hash(&mut h);
        h.finish()
    }

    fn turn(&self, i: usize) -> usize {
        self.block(i).turn
    }

    fn class(&self, i: usize) -> BlockClass {
        match self.block(i).class {
            ClassTag::Card => BlockClass::ToolCard,
            ClassTag::Reasoning => BlockClass::Reasoning,
            ClassTag::Text => BlockClass::Other,
        }
    }

    /// A card whose header says `failed` is a failure; text that starts
    /// with `assistant:` is speech.
    fn is(&self, i: usize, landmark: Landmark) -> bool {
        let b = self.block(i);
        let head = b.text.lines().next().unwrap_or_default();
        match landmark {
            Landmark::Failure => b.class == ClassTag::Card && head.contains("failed"),
            Landmark::Speech => b.class == ClassTag::Text && head.starts_with("assistant:"),
        }
    }

    fn limited(&self, _: usize) -> bool {
        false
    }

    fn foldable(&self, i: usize) -> bool {
        self.block(i).class != ClassTag::Text
    }

    fn lines(&self, i: usize, width: usize, folded: bool) -> Vec<Line<'static>> {
        self.layouts.set(self.layouts.get() + 1);
        let b = self.block(i);
        let (head, body) = b.text.split_once('\n').unwrap_or((&b.text, ""));
        let mut out: Vec<String> = Vec::new();
        match b.class {
            ClassTag::Card | ClassTag::Reasoning if folded => {
                let lines = b.text.lines().count() - 1 + b.code.len();
                out.extend(wrap(&format!("▸ {head} · {lines} lines folded"), width, ""));
            }
            ClassTag::Card => {
                out.extend(wrap(&format!("● {head}"), width, ""));
                if !body.is_empty() {
                    out.extend(wrap(body, width, "  │ "));
                }
                out.extend(b.code.iter().map(|c| format!("  {c}")));
            }
            ClassTag::Reasoning => {
                out.push("▾ thinking".into());
                out.extend(wrap(&b.text, width, "  "));
            }
            ClassTag::Text => {
                out.extend(wrap(&b.text, width, ""));
                out.extend(b.code.iter().cloned());
            }
        }
        out.push(String::new());
        out.into_iter().map(Line::from).collect()
    }

    fn search_text(&self, i: usize) -> String {
        let b = self.block(i);
        format!("{}\n{}", b.text, b.code.join("\n"))
    }

    fn full_text(&self, i: usize) -> Option<String> {
        let b = self.block(i);
        Some(
            b.text
                .split_once('\n')
                .map_or(b.text.clone(), |(_, body)| body.to_string()),
        )
    }

    fn title(&self) -> String {
        self.title.clone()
    }

    fn event_count(&self) -> usize {
        self.events
    }

    fn view_name(&self) -> &'static str {
        ["terminal", "user", "raw"][self.view]
    }

    fn cycle_view(&mut self) {
        self.view = (self.view + 1) % 3;
        let all = std::mem::take(&mut self.all);
        self.set(all);
    }
}

impl Follow for TestDoc {
    type Update = (Option<(Vec<TestBlock>, usize)>, LiveState);

    /// Every turn but the last has ended (all once finished); a block whose
    /// text starts with `? ` is a question.
    fn attention(&self) -> Attention {
        let turns = self.all.last().map_or(0, |b| b.turn);
        let questions: Vec<&TestBlock> = self
            .all
            .iter()
            .filter(|b| b.text.starts_with("? "))
            .collect();
        Attention {
            ended_turns: if self.live == LiveState::Finished {
                turns
            } else {
                turns.saturating_sub(1)
            },
            questions: questions.len(),
            last_question: questions
                .last()
                .map_or(String::new(), |b| b.text[2..].to_string()),
        }
    }

    fn live(&self) -> LiveState {
        self.live
    }

    fn unproven(&self) -> bool {
        self.proof_steps > 0
    }

    fn prove(&mut self) -> Result<bool, ReadError> {
        self.proof_steps = self.proof_steps.saturating_sub(1);
        Ok(false)
    }

    fn tick(&mut self) {
        if self.lock_released {
            self.live = LiveState::Finished;
        }
    }

    fn update(&mut self, (content, live): Self::Update) -> Result<bool, ReadError> {
        let was = std::mem::replace(&mut self.live, live);
        let Some((blocks, events)) = content else {
            return Ok(was != live);
        };
        if blocks.is_empty() {
            return Err(ReadError::new(
                "events.json: line 1, column 1: expected value",
            ));
        }
        self.set(blocks);
        self.events = events;
        Ok(true)
    }
}

impl EarlierTurns for TestDoc {
    fn earlier(&self) -> usize {
        self.unread.len()
    }

    fn read_earlier(&mut self, amount: EarlierAmount) -> Result<bool, ReadError> {
        self.reads += 1;
        if let Some(note) = self.unreadable.take() {
            return Err(ReadError::new(note));
        }
        let turns = match amount {
            EarlierAmount::Near => 1,
            EarlierAmount::Step => self.step,
        };
        let from = self.unread.len().saturating_sub(turns);
        let mut blocks: Vec<TestBlock> = self.unread.drain(from..).flatten().collect();
        if blocks.is_empty() {
            return Ok(false);
        }
        blocks.append(&mut self.all);
        self.set(blocks);
        Ok(true)
    }
}

impl Replaying for TestDoc {
}
