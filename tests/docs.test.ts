// 每课的 README 对照 EVOLUTION.md §6：模板、试一下、接入主线、幽灵名词、词汇纪律、Pi 源码溯源、Pi 边界的依据、代码片段、
// 禁用的套话、叙事里不写编号、s04 的 run 报错表。检查在 tooling/docs/，一条规则一个文件；每条检查也在改坏的样例
// （tests/fixtures/docs/bad/*.md）上跑一遍，证明它会失败。手动查一课：npm run docs:check -- s03。
// run 报错表的读法在 tests/error-table.test.ts，「试一下」的命令在 tests/try-it-commands.test.ts，英文入口在 tests/english-readme.test.ts。
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../tooling/course.ts";
import { createCommandRunner } from "../tooling/demos.ts";
import { HANG_GUARD_MS } from "../tooling/hang-guard.ts";
import { checkBannedPhrases } from "../tooling/docs/banned.ts";
import { type DocsContext, contextFor, loadProject } from "../tooling/docs/context.ts";
import { checkCodeExcerpts } from "../tooling/docs/excerpts.ts";
import { checkGhostNouns } from "../tooling/docs/ghost-nouns.ts";
import { CHECKS, checkLesson, checkReadme } from "../tooling/docs/index.ts";
import { checkMainline } from "../tooling/docs/mainline.ts";
import { checkPiBoundary } from "../tooling/docs/pi-boundary.ts";
import { checkPiFiles } from "../tooling/docs/pi-files.ts";
import { tryItCommands } from "../tooling/docs/try-it.ts";
import { checkVocabulary } from "../tooling/docs/vocabulary.ts";
import { demoRuns } from "./support/demo-runs.ts";
import { FIXTURES, fixtureCtx, fixtureLesson, fixtures } from "./support/docs-fixture.ts";

// 每课的演示在测试之前跑过一遍（tests/support/global-setup.ts），试一下用的就是那份输出。
const project = loadProject({ run: createCommandRunner(ROOT, HANG_GUARD_MS, await demoRuns()) });

describe("每课的 README（EVOLUTION.md §6）", () => {
  const checked = project.lessons.filter((l) => existsSync(l.readmePath));

  // 先把每条试一下的命令一起跑起来（同一条命令只跑一次；检查等的是缓存里的结果）。
  beforeAll(async () => {
    const commands = new Set(checked.flatMap((l) => tryItCommands(readFileSync(l.readmePath, "utf8"))));
    await Promise.all([...commands].map((c) => project.run(c)));
  });

  for (const lesson of project.lessons) {
    if (!existsSync(lesson.readmePath)) {
      it(`${lesson.id} README`, () => {
        expect.fail(`${lesson.id} README: missing`);
      });
      continue;
    }
    describe(`${lesson.id} README`, () => {
      const text = readFileSync(lesson.readmePath, "utf8");
      const ctx = contextFor(project, lesson);
      for (const { rule, check } of CHECKS) {
        it(rule, async () => {
          const violations = await check(lesson.id, text, ctx);
          expect(violations, violations.join("\n")).toEqual([]);
        });
      }
    });
  }
});


// ── 样例：每份改坏的 README 只违反一条规则 ─────────────────────────────────────
const rule = (prefix: string): string => {
  const found = CHECKS.find((c) => c.rule.startsWith(prefix));
  if (!found) throw new Error(`no check named ${prefix}`);
  return found.rule;
};

const CASES: { file: string; rule: string; message: RegExp }[] = [
  { file: "template-title", rule: rule("模板"), message: /^s03 README 模板 \(§6\.2\): line 1 must be "# s03: <主题> — <点题>"/ },
  { file: "template-boundary", rule: rule("模板"), message: /^s03 README 模板 \(§6\.2\): missing the quote line `> Pi 边界：…`$/ },
  { file: "template-lazy-quote", rule: rule("模板"), message: /^s03 README 模板 \(§6\.2\): line 5: every line between the title and ## 问题 starts with `>`/ },
  { file: "template-sections", rule: rule("模板"), message: /^s03 README 模板 \(§6\.2\): H2 sections must be exactly .* in this order; got .*## 接下来, ## 接入主线/ },
  { file: "template-folded", rule: rule("模板"), message: /^s03 README 模板 \(§6\.2\): ## Pi 源码溯源 must be folded/ },
  { file: "tryit-output", rule: rule("试一下"), message: /^s03 README 试一下: output differs at line 1: expected "hello, world", got "hello,world"/ },
  { file: "tryit-no-output", rule: rule("试一下"), message: /^s03 README 试一下: the command block at line \d+ \(npm run s03\) must be followed by a ```text block/ },
  { file: "mainline-missing", rule: rule("接入主线"), message: /^s03 README 接入主线: `DEMO_TEXT` is new in s03 but no change-table row names it in its first cell$/ },
  // 第 5 类：删掉那一行就失败，哪怕焊接点那句话还点着 DEMO_TEXT
  { file: "mainline-row", rule: rule("接入主线"), message: /^s03 README 接入主线: `DEMO_TEXT` is new in s03 but no change-table row names it in its first cell$/ },
  { file: "mainline-upgrade", rule: rule("接入主线"), message: /^s03 README 接入主线: U1 upgrade `Provider\.complete` must be named in backticks on a line that says 「这是升级」/ },
  { file: "mainline-claim", rule: rule("接入主线"), message: /^s03 README 接入主线: claims `"stop"` is new, but the API diff s02 → s03 does not add it$/ },
  { file: "mainline-new-row", rule: rule("接入主线"), message: /^s03 README 接入主线: claims `Provider` is new, but the API diff s02 → s03 does not add it$/ },
  { file: "ghost", rule: rule("没有幽灵"), message: /^s03 README 问题: ghost noun `toProviderMessage` \(not in s03_fixture\/code\.ts\)$/ },
  { file: "ghost-label", rule: rule("没有幽灵"), message: /^s03 README 接入主线: `ToolCall` comes from s04: label it right after the name, `ToolCall`（s04 加）$/ },
  { file: "ghost-literal-label", rule: rule("没有幽灵"), message: /^s03 README 接入主线: `"toolUse"` is labelled \(s05 加\) but first appears in s04$/ },
  // 第 6 类：正文里像代码的词也是名字
  { file: "ghost-prose", rule: rule("没有幽灵"), message: /^s03 README 工作原理: ghost noun `ContextBlock` in prose \(not in s03_fixture\/code\.ts\)$/ },
  // 挂在课程名字上的 JavaScript 方法照样是幽灵：只有根是 JavaScript 的（`Promise.all`）整条路径才算 JavaScript 的
  { file: "ghost-builtin-member", rule: rule("没有幽灵"), message: /^s03 README 工作原理: ghost noun `collect\.flatMap` \(not in s03_fixture\/code\.ts\)$/ },
  { file: "vocabulary", rule: rule("词汇纪律"), message: /^s03 README 工作原理: `run` is introduced in s04; .*\(R-写⑤\)$/ },
  { file: "vocabulary-prose", rule: rule("词汇纪律"), message: /^s03 README 接下来: `ToolCall` \(in prose\) is introduced in s04; 接下来 may only use names this lesson has explained \(R-写⑤\)$/ },
  // 第 7 类：试一下的正文（代码块以外）也归 R-写⑤ 管
  { file: "vocabulary-tryit", rule: rule("词汇纪律"), message: /^s03 README 试一下: `ToolCall` \(in prose\) is introduced in s04; 试一下 may only use names this lesson has explained \(R-写⑤\)$/ },
  { file: "pi-name", rule: rule("Pi 源码溯源"), message: /^s03 README Pi 源码溯源: `EventStream\.pushAll` not found in Pi 1\.6\.0$/ },
  { file: "pi-path", rule: rule("Pi 源码溯源"), message: /^s03 README Pi 源码溯源: path `packages\/ai\/src\/type\.ts` not found in Pi 1\.6\.0$/ },
  // 第 8 类：两样在 Pi 里都有，可名字不在 README 指的那个文件里
  { file: "pi-file", rule: rule("Pi 的名字"), message: /^s03 README Pi 源码溯源: `EventStream\.push` is not defined in `ai\/types\.ts` \(Pi 1\.6\.0 defines it in packages\/ai\/src\/utils\/event-stream\.ts\)$/ },
  // Pi 边界一行写着依据，依据真的有（issue 30）
  { file: "boundary-no-evidence", rule: rule("Pi 边界"), message: /^s03 README 开头: line 4: the Pi 边界 line names no evidence: end it with （依据：…）/ },
  { file: "boundary-unknown-name", rule: rule("Pi 边界"), message: /^s03 README 开头: line 4: the Pi 边界 line cites evidence that does not exist: `AssistantMessageEvents` not found in Pi 1\.6\.0$/ },
  { file: "boundary-unknown-scenario", rule: rule("Pi 边界"), message: /^s03 README 开头: line 4: the Pi 边界 line cites evidence that does not exist: `never-answer` is not a fidelity scenario \(fidelity\/scenarios\.ts, fidelity\/mechanisms\.ts\)$/ },
  { file: "boundary-later-scenario", rule: rule("Pi 边界"), message: /^s03 README 开头: line 4: the Pi 边界 line cites evidence that does not exist: fidelity scenario `one-tool` runs from s04 on, not on s03$/ },
  { file: "code-excerpt", rule: rule("代码片段"), message: /^s03 README 工作原理: code excerpt at line 22 is not in s03_fixture\/code\.ts \(first differing line: "  for await \(const event of events\) parts\.push\(event\.text\);"\)$/ },
  // 片段停在函数中间、却没说省掉了（issue 30）
  { file: "code-excerpt-open", rule: rule("代码片段"), message: /^s03 README 工作原理: code excerpt at line 22 stops inside code\.ts's FunctionDeclaration of line 21, which ends at line 25: show it to its end, or end the excerpt with a `\/\/ …` line$/ },
  { file: "banned-phrase", rule: rule("没有禁用"), message: /^s03 README: banned phrase 「接住一轮」 at line 3 \(R-写④\)$/ },
  { file: "banned-scope", rule: rule("没有禁用"), message: /^s03 README: banned phrase 「本章不讲」 at line \d+ \(R-写⑤\)$/ },
  // 第 9 类：禁用的是词族，读者指出的那句套话也是其中一族
  { file: "banned-family", rule: rule("没有禁用"), message: /^s03 README: banned phrase 「这一节先不讲」 at line 56 \(R-写⑤\)$/ },
  { file: "banned-formula", rule: rule("没有禁用"), message: /^s03 README: banned phrase 「这一节真正交付的」 at line 28 \(R-写④\)$/ },
  { file: "narrative-code", rule: rule("叙事里不写"), message: /^s03 README 工作原理: line \d+ names R1; give the reason itself/ },
];

const ERROR_TABLE_CASES: { file: string; rule: string; messages: string[] }[] = [
  // 代码会回的一句话，表上没有
  {
    file: "error-table-missing",
    rule: rule("run 的报错"),
    messages: ["s04 README 工作原理: ToolRegistry.run can return `arguments must be an object`, but the 报错 table has no row for it"],
  },
  // 表上的一句话和代码不一样了：代码那句没有行，表上这句代码说不出来
  {
    file: "error-table-drift",
    rule: rule("run 的报错"),
    messages: [
      's04 README 工作原理: ToolRegistry.run can return `argument "<…>" is missing`, but the 报错 table has no row for it',
      's04 README 工作原理: the 报错 table lists `argument "<…>" is required`, but ToolRegistry.run has no such wording',
    ],
  },
];

describe("文档检查抓得到每一份改坏的样例（tests/fixtures/docs）", () => {
  it("好的样例 s03_fixture/README.md 每条检查都过", async () => {
    const results = await checkReadme("s03", readFileSync(fixtureLesson.readmePath, "utf8"), fixtureCtx);
    expect([...results.values()].flat()).toEqual([]);
  });

  it("每条检查都有一份让它失败的样例", () => {
    expect(new Set([...CASES, ...ERROR_TABLE_CASES].map((c) => c.rule))).toEqual(new Set(CHECKS.map((c) => c.rule)));
  });

  for (const c of CASES) {
    it(`bad/${c.file}.md 只违反：${c.rule}`, async () => {
      const text = readFileSync(join(FIXTURES, "bad", `${c.file}.md`), "utf8");
      const broken = [...(await checkReadme("s03", text, fixtureCtx))].filter(([, messages]) => messages.length > 0);
      expect(broken.map(([r]) => r)).toEqual([c.rule]);
      const messages = broken[0]?.[1] ?? [];
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatch(c.message);
    });
  }

  // run 的报错一览只在引入 ToolRegistry.run 的那一课（真的 s04）：样例是一张改坏的表，换掉 s04 README 里那张真表，
  // 其余一字不动，所以别的检查照样全过，只有这一条失败
  const s04 = project.lessons.find((l) => l.id === "s04");
  for (const c of ERROR_TABLE_CASES) {
    it(`bad/${c.file}.md 换进 s04 README 只违反：${c.rule}`, async () => {
      if (s04 === undefined) throw new Error("no s04");
      const real = readFileSync(s04.readmePath, "utf8");
      const start = real.indexOf("| 报错（");
      const end = real.indexOf("\n\n", start);
      expect(start, "s04 README has the 报错 table").toBeGreaterThan(0);
      const text = real.slice(0, start) + readFileSync(join(FIXTURES, "bad", `${c.file}.md`), "utf8").trimEnd() + real.slice(end);
      const broken = [...(await checkReadme("s04", text, contextFor(project, s04)))].filter(([, messages]) => messages.length > 0);
      expect(broken.map(([r]) => r)).toEqual([c.rule]);
      expect(broken[0]?.[1]).toEqual(c.messages);
    });
  }

  it("没有 README.md 的课报 missing", async () => {
    expect(await checkLesson("s04", {}, fixtures)).toEqual(["s04 README: missing"]);
  });

  it("第一课的接入主线要点名它报告里的每个声明（永驻基础）", () => {
    const first: DocsContext = { ...fixtureCtx, prevLesson: undefined, prevReport: undefined, upgrades: [] };
    const readme = "## 接入主线\n\n| 永驻基础 | 以后怎么长 |\n|---|---|\n| `StopReason`、`Provider`、`ProviderEvent` | 只增 |\n| `main` | — |\n";
    expect(checkMainline("s01", readme, first)).toEqual([
      "s01 README 接入主线: `DEMO_TEXT` is an s01 declaration (the foundation) but no change-table row names it in its first cell",
      "s01 README 接入主线: `collect` is an s01 declaration (the foundation) but no change-table row names it in its first cell",
    ]);
  });
});

describe("规则细节", () => {
  const claims = (readme: string): string[] => checkMainline("s03", readme, fixtureCtx).filter((m) => m.includes(" claims "));

  it("上一节一栏是 `—` 的行，声称第一格的名字是新的：新声明、新成员、新的联合成员才算数", () => {
    const table = (cells: string[]): string => `## 接入主线\n\n| 组件 | 上一节（s02） | 本节（s03） |\n|---|---|---|\n${cells.map((c) => `| ${c} | — | 新的 |`).join("\n")}\n`;
    expect(claims(table(["`ProviderEvent`", "`collect`、`DEMO_TEXT`", "`Provider.stream`", "`stream`", "`\"text_delta\"`", "`ToolCall`（s04 加）"]))).toEqual([]);
    expect(claims(table(["`Provider`", "`main`", "`Provider.complete`"]))).toEqual([
      "s03 README 接入主线: claims `Provider` is new, but the API diff s02 → s03 does not add it",
      "s03 README 接入主线: claims `main` is new, but the API diff s02 → s03 does not add it",
      "s03 README 接入主线: claims `Provider.complete` is new, but the API diff s02 → s03 does not add it",
    ]);
    // s01 没有上一课：它的永驻基础表不是变更表。
    const first: DocsContext = { ...fixtureCtx, prevLesson: undefined, prevReport: undefined, upgrades: [] };
    expect(checkMainline("s01", table(["`Nope`"]), first).filter((m) => m.includes(" claims "))).toEqual([]);
  });

  it("正文的词汇纪律只管像代码的词（camelCase、PascalCase、snake_case、name()）", () => {
    const prose = (line: string): string[] => checkVocabulary("s03", `## 接下来\n\n${line}\n`, fixtureCtx);
    expect(prose("下一节要 run 工具，循环有上限，还会 pick 一个 model。")).toEqual([]);
    expect(prose("`ToolCall`（s04 加）")).toHaveLength(1); // 叙事的几节里带标签也不行（和以前一样）
    expect(prose("下一节：run()、tool\\_call、maxTurns 和 toolUse。")).toEqual(
      ["run()", "tool_call", "maxTurns", "toolUse"].map((n) => `s03 README 接下来: \`${n}\` (in prose) is introduced in s04; 接下来 may only use names this lesson has explained (R-写⑤)`),
    );
  });

  it("一处变化一行：成员写在它所属声明那一行或第一格才算，别处不算（第 5 类）", () => {
    const withMember: DocsContext = {
      ...fixtureCtx,
      report: { ...fixtureCtx.report, "Provider.cancel": "() => void" },
    };
    const mainline = (rows: string, after = ""): string[] =>
      checkMainline("s03", `## 接入主线\n\n| 组件 | s02 | s03 |\n|---|---|---|\n| \`ProviderEvent\` | — | \`text_delta\`、\`message_end\` |\n| \`collect\`、\`DEMO_TEXT\` | — | 新 |\n${rows}\n\n${after}`, withMember).filter((m) => m.includes("no change-table row"));
    const missing = ["s03 README 接入主线: `cancel` is new in s03 (Provider.cancel) but no change-table row names it in its first cell, or the row of `Provider`"];
    expect(mainline("| `Provider` | `complete` | `stream`（这是升级），加 `cancel` |")).toEqual([]);
    expect(mainline("| `Provider` | `complete` | `stream`（这是升级） |\n| `Provider.cancel` | 无 | 新的方法 |")).toEqual([]);
    expect(mainline("| `Provider` | `complete` | `stream`（这是升级） |", "焊接点：`Provider` 的 `cancel`。\n")).toEqual(missing);
    expect(mainline("| `Provider` | `complete` | `stream`（这是升级） |\n| 其他 | — | `cancel` |")).toEqual(missing);
    expect(mainline("| `Provider` | `complete` | `stream`（这是升级） |", "```diff\n+ cancel\n```\n")).toEqual(missing);
  });

  it("正文里的幽灵名词：驼峰、下划线、调用都算；缩写、产品名、后面课的名字不算（第 6 类）", () => {
    const ghosts = (line: string): string[] => checkGhostNouns("s03", `## 工作原理\n\n${line}\n`, fixtureCtx);
    expect(ghosts("先包成一个 ContextBlock，再交给 flushBuffer()，最后写进 event_log。")).toEqual(
      ["`ContextBlock`", "`flushBuffer()`", "`event_log`"].map((n) => `s03 README 工作原理: ghost noun ${n} in prose (not in s03_fixture/code.ts)`),
    );
    expect(ghosts("collect 把 ProviderEvent 的 text 拼起来：JSON、API、TypeScript、GitHub 都不是名字，下一节的 ToolCall 归词汇纪律管。")).toEqual([]);
    expect(checkGhostNouns("s03", "## 接入主线\n\n焊接点：下一节 ToolCall 并进来。\n", fixtureCtx)).toEqual([
      "s03 README 接入主线: `ToolCall` in prose comes from s04: label it right after the name, `ToolCall`（s04 加）",
    ]);
    expect(checkGhostNouns("s03", "## 接入主线\n\n焊接点：下一节 ToolCall（s04 加）并进来。\n", fixtureCtx)).toEqual([]);
    expect(checkGhostNouns("s03", "## Pi 源码溯源\n\nPi 的 AgentSession 不归这条检查管。\n", fixtureCtx)).toEqual([]);
    // 写在说 Pi 的那一行（或表头是 Pi 的那一栏）里的 Pi 自己的名字指的是 Pi——只要 Pi 1.6.0 里有
    expect(ghosts("Pi 里这个函数叫 ExtensionFactory，事件从 agent_start 到 agent_end；文件是 APPEND_SYSTEM.md。")).toEqual([]);
    expect(ghosts("| 课程 | Pi 1.6.0 |\n|---|---|\n| `collect` | AgentSession、agent_end |")).toEqual([]);
    expect(ghosts("Pi 里这个函数叫 ExtensionFactories。")).toEqual(["s03 README 工作原理: ghost noun `ExtensionFactories` in prose (not in s03_fixture/code.ts)"]);
    expect(ghosts("这个函数叫 ExtensionFactory。")).toEqual(["s03 README 工作原理: ghost noun `ExtensionFactory` in prose (not in s03_fixture/code.ts)"]);
  });

  it("词汇纪律管开头，和除接入主线、源码溯源以外的每一节（第 7 类）", () => {
    const vocab = (readme: string): string[] => checkVocabulary("s03", readme, fixtureCtx);
    expect(vocab("# s03: 流 — 拼\n\n> 每个 ToolCall 都算数。\n> Pi 边界：x\n")).toEqual([
      "s03 README 开头: `ToolCall` (in prose) is introduced in s04; 开头 may only use names this lesson has explained (R-写⑤)",
    ]);
    expect(vocab("## 试一下\n\n```bash\nnpm run s03 # ToolCall\n```\n\n看 `runEventedToolLoop` 那一行。\n")).toEqual([
      "s03 README 试一下: `runEventedToolLoop` is introduced in s04; 试一下 may only use names this lesson has explained (R-写⑤)",
    ]);
    expect(vocab("## 接入主线\n\n`ToolCall`（s04 加）\n\n## Pi 源码溯源\n\nPi 的 ToolCall\n")).toEqual([]);
  });

  it("Pi 的名字写在 Pi 路径旁边，就得定义在那个文件里；README 的每种写法都查（第 8 类）", () => {
    const pairs = (line: string, section = "Pi 源码溯源"): string[] => checkPiFiles("s03", `## ${section}\n\n${line}\n`, fixtureCtx);
    const ok = [
      "`packages/agent/src/agent-loop.ts` 的 `runAgentLoop`",
      "`packages/agent/src/agent-loop.ts` 里的内部函数 `runLoop`",
      "`packages/ai/src/types.ts`：`ToolCall`",
      "`agent-loop.ts` 里的 `runAgentLoop` 和 `runAgentLoopContinue`",
      "`EventStream.push`（`ai/utils/event-stream.ts`）",
      "`EventStream.push`，见 `packages/ai/src/utils/`",
      "[agent-loop.ts](https://github.com/earendil-works/pi/blob/v1.6.0/packages/agent/src/agent-loop.ts) 的 `runAgentLoop`",
      "`packages/ai/src/types.ts` 为例，它的 `runAgentLoop`",
    ];
    for (const line of ok) expect(pairs(line), line).toEqual([]);
    expect(pairs("`packages/agent/src/agent-loop.ts` 里的 `runAgentLoop`、`ToolCall`")).toEqual([
      "s03 README Pi 源码溯源: `ToolCall` is not defined in `packages/agent/src/agent-loop.ts` (Pi 1.6.0 defines it in packages/ai/src/types.ts)",
    ]);
    expect(pairs("`runAgentLoop`（`ai/types.ts`）")).toEqual([
      "s03 README Pi 源码溯源: `runAgentLoop` is not defined in `ai/types.ts` (Pi 1.6.0 defines it in packages/agent/src/agent-loop.ts)",
    ]);
    expect(pairs("[types](https://github.com/earendil-works/pi/blob/v1.6.0/packages/ai/src/types.ts) 里的 `runAgentLoop`")).toHaveLength(1);
    expect(pairs("`packages/agent/src/agent.ts` 的 `collect`", "工作原理")).toEqual([
      "s03 README 工作原理: `collect` is not defined in `packages/agent/src/agent.ts` (no file of Pi 1.6.0 defines it)",
    ]);
  });

  it("禁用的套话按词族查，断在两行之间也查得到；普通句子不算（第 9 类）", () => {
    const banned = (text: string): string[] => checkBannedPhrases("s03", text).map((m) => /「(.*)」/.exec(m)?.[1] ?? m);
    expect(banned("本节不讲持久化。\n\n这一章不讲工具。\n\n这课暂不展开。\n\n先接住这一轮。\n\n事件穿过Core。\n\n本节真正要交付的是一个约定。")).toEqual([
      "本节不讲",
      "这一章不讲",
      "这课暂不展开",
      "接住这一轮",
      "穿过Core",
      "本节真正要交付的",
    ]);
    expect(checkBannedPhrases("s03", "第一行写到这一节\n不讲的事。\n")).toEqual(["s03 README: banned phrase 「这一节不讲」 at line 1 (R-写⑤)"]);
    expect(banned("这一节讲清楚了流。异常要接住，一轮一轮地跑。core 穿过了两层。下一节再讲持久化。")).toEqual([]);
  });

  it("Pi 边界的依据：名字、路径、剧本都查；子句得在行尾；词汇纪律只放过这个子句（issue 30）", () => {
    const head = (boundary: string): string => `# s03: 流 — 拼\n\n> 格言。\n> Pi 边界：${boundary}\n`;
    const evidence = (boundary: string): string[] => checkPiBoundary("s03", head(boundary), fixtureCtx);
    expect(evidence("事件流（依据：`packages/agent/src/agent-loop.ts` 的 `runAgentLoop`、`ai/types.ts`、`agent-loop.ts`；对照 `never-answers`、`never-answers-deaf`）。")).toEqual([]);
    expect(evidence("事件流（依据：`packages/ai/src/type.ts`）")).toEqual([
      "s03 README 开头: line 4: the Pi 边界 line cites evidence that does not exist: path `packages/ai/src/type.ts` not found in Pi 1.6.0",
    ]);
    expect(evidence("事件流（依据：`runAgentLoop`）之后还有话。")).toEqual(["s03 README 开头: line 4: the Pi 边界 line must end with its evidence clause （依据：…）"]);
    expect(evidence("事件流（依据：见 Pi 的源码）。")).toHaveLength(1);
    expect(checkPiBoundary("s03", "# s03: 流 — 拼\n\n> 格言。\n", fixtureCtx)).toEqual([]); // 整行都没有：这归模板检查说
    // 依据子句可以引 Pi 的 ToolCall（在课程里是后面的课的名字），这一行的其余部分不行
    expect(checkVocabulary("s03", head("事件流（依据：`ToolCall`、`agent-loop.ts`）。"), fixtureCtx)).toEqual([]);
    expect(checkVocabulary("s03", head("每个 `ToolCall` 都是事件（依据：`agent-loop.ts`）。"), fixtureCtx)).toEqual([
      "s03 README 开头: `ToolCall` is introduced in s04; 开头 may only use names this lesson has explained (R-写⑤)",
    ]);
    // 依据子句只在 Pi 边界那一行才读
    expect(checkVocabulary("s03", `${head("事件流（依据：`agent-loop.ts`）。")}\n## 问题\n\n看（依据：\`ToolCall\`）。\n`, fixtureCtx)).toHaveLength(1);
  });

  it("代码片段必须是 code.ts 里连续、一字不差的几行（缩进也算，行尾空白不算）", () => {
    const excerpt = (body: string): string[] => checkCodeExcerpts("s03", `## 工作原理\n\n\`\`\`ts\n${body}\n\`\`\`\n`, fixtureCtx);
    expect(excerpt("\n  const parts: string[] = [];   \n  for await (const event of events) if (event.type === \"text_delta\") parts.push(event.text);\n")).toEqual([]);
    expect(excerpt("const parts: string[] = [];")).toEqual([
      's03 README 工作原理: code excerpt at line 3 is not in s03_fixture/code.ts (first differing line: "const parts: string[] = [];")',
    ]);
    expect(checkCodeExcerpts("s03", "## Pi 源码溯源\n\n```ts\nanything Pi\n```\n", fixtureCtx)).toEqual([]);
  });
});
