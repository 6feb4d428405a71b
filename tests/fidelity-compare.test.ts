// 保真对照（npm run fidelity）的比较逻辑本身：用手写的轨迹和观察证明它真的会报错。
// 这里不装、不跑 Pi——fidelity/compare.ts、listed-differences/、scenarios.ts、mechanisms.ts、observe.ts 都不引用 Pi。
// 这里是循环剧本和差异表；机制剧本的比较在 tests/fidelity-mechanisms.test.ts。
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  asRequest,
  compareCaller,
  compareRequests,
  compareTraces,
  type MiniMessageLike,
  normaliseMini,
  normaliseMiniRequest,
  normalisePi,
  pairingProblems,
  type PiMessageLike,
  staleRows,
  type FidelityTrace,
} from "../fidelity/compare.ts";
import { PI_FACT_DIFFERENCES } from "../fidelity/listed-differences/fact-rows.ts";
import { DOC_PATH, renderDoc } from "../fidelity/listed-differences/render-doc.ts";
import { PI_TRACE_DIFFERENCES } from "../fidelity/listed-differences/trace-rows.ts";
import { MECHANISM_SCENARIOS } from "../fidelity/mechanisms.ts";
import { ASYNC_BLOCK_REASON, CALLER, callerLine, LOOP_SCENARIOS, settlesWithin } from "../fidelity/scenarios.ts";

const text = (t: string): { type: string; text: string }[] => [{ type: "text", text: t }];
const toolCall = (id: string): { type: string; id: string } => ({ type: "toolCall", id });

// 「调一次工具，再回答」：Pi 1.6.0 的 runAgentLoop 返回的样子，和 mini Pi 存下的样子
const PI_ONE_TOOL: PiMessageLike[] = [
  { role: "system" },
  { role: "user", content: "回显一下 hi" },
  { role: "assistant", content: [...text("我调一下 echo。"), toolCall("call_1")], stopReason: "toolUse" },
  { role: "toolResult", toolCallId: "call_1", isError: false, content: text("echo:hi") },
  { role: "assistant", content: text("echo 回了 echo:hi。"), stopReason: "stop" },
];
const MINI_ONE_TOOL: MiniMessageLike[] = [
  { role: "user", content: "回显一下 hi" },
  { role: "assistant", content: "我调一下 echo。", stopReason: "toolUse" },
  { role: "toolResult", toolCallId: "call_1", content: "echo:hi" },
  { role: "assistant", content: "echo 回了 echo:hi。", stopReason: "stop" },
];
const CALLS_ONE_TOOL = [["call_1"], []];

const compareOneTool = (mini: MiniMessageLike[], calls: string[][] = CALLS_ONE_TOOL, differences = PI_TRACE_DIFFERENCES) =>
  compareTraces("one-tool", normalisePi(PI_ONE_TOOL), normaliseMini(mini, calls), differences);

describe("保真对照：对的 mini 轨迹过得了", () => {
  it("one-tool：只有列出的系统消息差异（F1）", () => {
    expect(compareOneTool(MINI_ONE_TOOL)).toEqual({ used: ["F1"], problems: [] });
  });
});

describe("保真对照：错的 mini 轨迹被报出来", () => {
  it("中间那条助手消息丢了", () => {
    const mini = MINI_ONE_TOOL.filter((_, i) => i !== 1);
    const { problems } = compareOneTool(mini, [[]]);
    expect(problems).toContain("mini 配对 #1：结果 call_1 不回答它前面那条助手消息要的任何调用");
    expect(problems).toContain('pi #2 assistant[toolUse] "我调一下 echo。" calls=call_1 在 mini 里没有');
  });

  it("toolCallId 不回答任何调用", () => {
    const mini = MINI_ONE_TOOL.map((m) => (m.role === "toolResult" ? { ...m, toolCallId: "call_2" } : m));
    const { problems } = compareOneTool(mini);
    expect(problems).toContain("mini 配对 #2：结果 call_2 不回答它前面那条助手消息要的任何调用");
    expect(problems).toContain("mini 配对 #1：调用 call_1 没有结果");
    expect(problems).toContain('pi #3 toolResult call_1 ok "echo:hi" ≠ mini #2 toolResult call_2 ok "echo:hi"');
  });

  it("出错标记翻了", () => {
    const mini = MINI_ONE_TOOL.map((m) => (m.role === "toolResult" ? { ...m, content: "error: echo:hi" } : m));
    expect(compareOneTool(mini).problems).toEqual(['pi #3 toolResult call_1 ok "echo:hi" ≠ mini #2 toolResult call_1 error "echo:hi"']);
  });

  it("stopReason 不一样", () => {
    const mini = MINI_ONE_TOOL.map((m, i) => (i === 3 ? { ...m, stopReason: "error" } : m));
    expect(compareOneTool(mini).problems).toEqual(['pi #4 assistant[stop] "echo 回了 echo:hi。" ≠ mini #3 assistant[error] "echo 回了 echo:hi。"']);
  });

  it("末尾多一条消息", () => {
    const mini = [...MINI_ONE_TOOL, { role: "assistant" as const, content: "还有一句。", stopReason: "stop" }];
    expect(compareOneTool(mini, [...CALLS_ONE_TOOL, []]).problems).toEqual(['mini #4 assistant[stop] "还有一句。" 在 pi 里没有']);
  });

  it("结果的顺序错了", () => {
    const trace = normaliseMini(
      [
        { role: "user", content: "x" },
        { role: "assistant", content: "", stopReason: "toolUse" },
        { role: "toolResult", toolCallId: "call_2", content: "b" },
        { role: "toolResult", toolCallId: "call_1", content: "a" },
      ],
      [["call_1", "call_2"]],
    );
    expect(pairingProblems(trace)).toEqual(["#2：结果 call_2 顺序不对（该轮到 call_1）"]);
  });

  it("表外的差异：没有 F1 这一行，系统消息就是不符", () => {
    const { problems } = compareOneTool(
      MINI_ONE_TOOL,
      CALLS_ONE_TOOL,
      PI_TRACE_DIFFERENCES.filter((d) => d.id !== "F1"),
    );
    expect(problems).toEqual(["pi #0 system 在 mini 里没有"]);
  });
});

describe("保真对照：列出的差异只消掉它自己描述的那种样子", () => {
  const unknownTool = (miniText: string, scenario = "unknown-tool") =>
    compareTraces(
      scenario,
      normalisePi([
        { role: "user", content: "u" },
        { role: "assistant", content: [toolCall("call_1")], stopReason: "toolUse" },
        { role: "toolResult", toolCallId: "call_1", isError: true, content: text("Tool nope not found") },
      ]),
      normaliseMini(
        [
          { role: "user", content: "u" },
          { role: "assistant", content: "", stopReason: "toolUse" },
          { role: "toolResult", toolCallId: "call_1", content: miniText },
        ],
        [["call_1"]],
      ),
      PI_TRACE_DIFFERENCES,
    );

  it("F3 认同一个工具改了名字的文字", () => {
    expect(unknownTool('error: unknown tool "nope"')).toEqual({ used: ["F3"], problems: [] });
  });

  it("F3 不认别的工具的名字", () => {
    expect(unknownTool('error: unknown tool "nada"').problems).toHaveLength(1);
  });

  it("一行差异只用在它列出的剧本上", () => {
    expect(unknownTool('error: unknown tool "nope"', "one-tool").problems).toHaveLength(1);
  });

  it("F4 要参数问题的清单一样", () => {
    const run = (miniText: string) =>
      compareTraces(
        "invalid-args",
        normalisePi([
          { role: "assistant", content: [toolCall("call_1")], stopReason: "toolUse" },
          {
            role: "toolResult",
            toolCallId: "call_1",
            isError: true,
            content: text('Validation failed for tool "echo":\n  - text: missing\n  - file: unknown field\n\nReceived arguments:\n{}'),
          },
        ]),
        normaliseMini([{ role: "assistant", content: "", stopReason: "toolUse" }, { role: "toolResult", toolCallId: "call_1", content: miniText }], [["call_1"]]),
        PI_TRACE_DIFFERENCES,
      );
    expect(run('error: invalid arguments for tool "echo": argument "text" is missing; unexpected argument "file"').problems).toEqual([]);
    expect(run('error: invalid arguments for tool "echo": argument "text" is missing').problems).toHaveLength(1);
    expect(run('error: invalid arguments for tool "echo": argument "path" is missing; unexpected argument "file"').problems).toHaveLength(1);
  });

  it("F12 只认恰好 8 轮之后停下，7 轮不行", () => {
    const piMessages: PiMessageLike[] = [{ role: "user", content: "u" }];
    for (let n = 1; n <= 12; n++) {
      piMessages.push({ role: "assistant", content: [toolCall(`c${n}`)], stopReason: "toolUse" });
      piMessages.push({ role: "toolResult", toolCallId: `c${n}`, isError: false, content: text(`r${n}`) });
    }
    const mini = (turns: number) => {
      const messages: MiniMessageLike[] = [{ role: "user", content: "u" }];
      for (let n = 1; n <= turns; n++) {
        messages.push({ role: "assistant", content: "", stopReason: "toolUse" });
        messages.push({ role: "toolResult", toolCallId: `c${n}`, content: `r${n}` });
      }
      messages.push({ role: "assistant", content: "max turns reached", stopReason: "stop" });
      return normaliseMini(messages, Array.from({ length: turns }, (_, i) => [`c${i + 1}`]));
    };
    expect(compareTraces("never-stops", normalisePi(piMessages), mini(8), PI_TRACE_DIFFERENCES)).toEqual({ used: ["F12"], problems: [] });
    expect(compareTraces("never-stops", normalisePi(piMessages), mini(7), PI_TRACE_DIFFERENCES).problems.length).toBeGreaterThan(0);
  });
});

describe("保真对照：模型每次请求看到的东西", () => {
  // 第二次请求：Pi 的模型看到 system、user、带 toolCall 的助手消息、结果；mini Pi 的模型看到的助手消息只有文字
  const piRequests = [PI_ONE_TOOL.slice(0, 2), PI_ONE_TOOL.slice(0, 4)].map((m) => asRequest(normalisePi(m)));
  const miniInputs = [MINI_ONE_TOOL.slice(0, 1), MINI_ONE_TOOL.slice(0, 3)].map((m) => m.map(({ role, content, toolCallId }) => ({ role, content, toolCallId })));

  it("只有列出的差异：系统消息（F1）和模型看不到的调用（F13）", () => {
    expect(compareRequests("one-tool", piRequests, miniInputs.map(normaliseMiniRequest), PI_TRACE_DIFFERENCES)).toEqual({ used: ["F1", "F13"], problems: [] });
  });

  it("第二次请求里少了一个结果，报出来，带着请求的序号", () => {
    const wrong = [miniInputs[0], miniInputs[1].slice(0, 2)].map(normaliseMiniRequest);
    expect(compareRequests("one-tool", piRequests, wrong, PI_TRACE_DIFFERENCES).problems).toEqual([
      '第 2 次请求：pi #3 toolResult call_1 ok "echo:hi" 在 mini 里没有',
    ]);
  });

  it("F13 只用在请求上：历史里的助手消息丢了调用，照样是不符", () => {
    const { problems } = compareOneTool(MINI_ONE_TOOL, [[], []]);
    expect(problems).toContain('pi #2 assistant[toolUse] "我调一下 echo。" calls=call_1 ≠ mini #1 assistant[toolUse] "我调一下 echo。"');
  });
});

// ── issue 13 的边界（F37–F43）：钩子和工具答得不成样子、一轮没跑完又来一句、模型不回话 ──
describe("保真对照：加固过的边界（F37–F43）只消掉它们描述的那种样子", () => {
  const u = (t: string): PiMessageLike => ({ role: "user", content: t });
  /** Pi 一侧：要了 calls 这几个调用，结果是 results（[文字, 出错]）。 */
  const piRun = (calls: string[], results: [string, boolean][]): FidelityTrace =>
    normalisePi([
      u("u"),
      { role: "assistant", content: calls.map(toolCall), stopReason: "toolUse" },
      ...results.map(([t, isError], i): PiMessageLike => ({ role: "toolResult", toolCallId: calls[i], isError, content: text(t) })),
      { role: "assistant", content: text("好了。"), stopReason: "stop" },
    ]);
  const miniRun = (calls: string[], results: string[]): FidelityTrace =>
    normaliseMini(
      [
        { role: "user", content: "u" },
        { role: "assistant", content: "", stopReason: "toolUse" },
        ...results.map((content, i): MiniMessageLike => ({ role: "toolResult", toolCallId: calls[i], content })),
        { role: "assistant", content: "好了。", stopReason: "stop" },
      ],
      [calls, []],
    );
  const BEFORE_UNDEFINED = 'error: hook failed: beforeToolCall returned undefined, expected {type: "allow"} or {type: "block", reason}';
  const BEFORE_PROMISE = 'error: hook failed: beforeToolCall returned a Promise, expected {type: "allow"} or {type: "block", reason}';

  it("F37：忘了 return，Pi 放行、课程拒绝；别的失败不算，执行了的调用也不算", () => {
    const pi = piRun(["call_1"], [["echo:a", false]]);
    expect(compareTraces("before-undefined", pi, miniRun(["call_1"], [BEFORE_UNDEFINED]), PI_TRACE_DIFFERENCES)).toEqual({ used: ["F37"], problems: [] });
    expect(compareTraces("before-undefined", pi, miniRun(["call_1"], ["error: blocked: undefined"]), PI_TRACE_DIFFERENCES).problems).toEqual([
      'pi #2 toolResult call_1 ok "echo:a" ≠ mini #2 toolResult call_1 error "blocked: undefined"',
    ]);
    expect(compareTraces("before-undefined", pi, miniRun(["call_1"], ["echo:b"]), PI_TRACE_DIFFERENCES).problems).toHaveLength(1);
    expect(compareTraces("one-tool", pi, miniRun(["call_1"], [BEFORE_UNDEFINED]), PI_TRACE_DIFFERENCES).problems).toHaveLength(1);
  });

  it("F38：Pi 会等 async 的钩子；课程让被拦的调用跑了，报出来", () => {
    const pi = piRun(["call_1", "call_2"], [["echo:a", false], [ASYNC_BLOCK_REASON, true]]);
    expect(compareTraces("before-async", pi, miniRun(["call_1", "call_2"], [BEFORE_PROMISE, BEFORE_PROMISE]), PI_TRACE_DIFFERENCES)).toEqual({ used: ["F38"], problems: [] });
    // 以前的缺陷：resolve 成拦下的 async 钩子被当成放行，rm 真的跑了
    expect(compareTraces("before-async", pi, miniRun(["call_1", "call_2"], [BEFORE_PROMISE, "rm:a.txt"]), PI_TRACE_DIFFERENCES).problems).toEqual([
      `pi #3 toolResult call_2 error ${JSON.stringify(ASYNC_BLOCK_REASON)} ≠ mini #3 toolResult call_2 ok "rm:a.txt"`,
    ]);
    // Pi 拦下的理由不是剧本写的那个：F38 不认
    const other = piRun(["call_1", "call_2"], [["echo:a", false], ["policy says no", true]]);
    expect(compareTraces("before-async", other, miniRun(["call_1", "call_2"], [BEFORE_PROMISE, BEFORE_PROMISE]), PI_TRACE_DIFFERENCES).problems).toHaveLength(1);
  });

  it("F39、F40：Pi 留着的结果，课程变成一条错误；把 Promise 存成结果的，报出来", () => {
    const pi = piRun(["call_1"], [["echo:a", false]]);
    expect(compareTraces("after-undefined", pi, miniRun(["call_1"], ["error: hook failed: afterToolCall returned undefined, expected a string"]), PI_TRACE_DIFFERENCES)).toEqual({
      used: ["F39"],
      problems: [],
    });
    expect(compareTraces("after-undefined", pi, miniRun(["call_1"], ["error: hook failed: afterToolCall returned null, expected a string"]), PI_TRACE_DIFFERENCES).problems).toHaveLength(1);
    const weather = piRun(["call_1"], [["晴，25 度", false]]);
    expect(compareTraces("async-tool", weather, miniRun(["call_1"], ['error: tool "weather" returned a Promise, expected a string']), PI_TRACE_DIFFERENCES)).toEqual({ used: ["F40"], problems: [] });
    expect(compareTraces("async-tool", weather, miniRun(["call_1"], ["[object Promise]"]), PI_TRACE_DIFFERENCES).problems).toEqual([
      'pi #2 toolResult call_1 ok "晴，25 度" ≠ mini #2 toolResult call_1 ok "[object Promise]"',
    ]);
  });

  // 调用方的轨迹：每行是「哪一步：看到什么」
  const saw = (...lines: [string, string][]): FidelityTrace => lines.map(([step, what]) => ({ role: "caller", text: callerLine(step, what) }));
  const PI_SECOND = saw([CALLER.secondPrompt, CALLER.threw("Agent is already processing a prompt. Use steer() or followUp() to queue messages, or wait for completion.")]);
  const refused = CALLER.returned('assistant[error] "" error="agent is already processing a prompt"');

  it("F41：Pi 的第二次 prompt 抛错，课程的回一句拒绝；第二轮真跑了、或者调用方少了一行，报出来", () => {
    expect(compareCaller("second-prompt", PI_SECOND, saw([CALLER.secondPrompt, refused]), PI_TRACE_DIFFERENCES)).toEqual({ used: ["F41"], problems: [] });
    const ran = saw([CALLER.secondPrompt, CALLER.returned('assistant[stop] "又一个笑话"')]);
    expect(compareCaller("second-prompt", PI_SECOND, ran, PI_TRACE_DIFFERENCES).problems).toEqual([
      `调用方：pi #0 caller ${PI_SECOND[0].role === "caller" ? PI_SECOND[0].text : ""} ≠ mini #0 caller ${callerLine(CALLER.secondPrompt, CALLER.returned('assistant[stop] "又一个笑话"'))}`,
    ]);
    expect(compareCaller("second-prompt", PI_SECOND, undefined, PI_TRACE_DIFFERENCES).problems).toHaveLength(1);
    expect(compareCaller("second-prompt", undefined, undefined, PI_TRACE_DIFFERENCES)).toEqual({ used: [], problems: [] });
    // F41 只比调用方：历史里多存了第二句，照样报出来
    const history = (extra: MiniMessageLike[]) => normaliseMini([{ role: "user", content: "讲个笑话" }, ...extra, { role: "assistant", content: "从前……", stopReason: "stop" }], [[]]);
    const piHistory = normalisePi([u("讲个笑话"), { role: "assistant", content: text("从前……"), stopReason: "stop" }]);
    expect(compareTraces("second-prompt", piHistory, history([]), PI_TRACE_DIFFERENCES)).toEqual({ used: [], problems: [] });
    expect(compareTraces("second-prompt", piHistory, history([{ role: "user", content: "再讲一个" }]), PI_TRACE_DIFFERENCES).problems).toEqual(['mini #1 user "再讲一个" 在 pi 里没有']);
  });

  it("F42、F43：Pi 的 abort 结束这一轮，课程等着 provider；一直不结束或结束得太早的一轮，报出来", () => {
    const wait = CALLER.waited(20);
    const piSaw = saw([wait, CALLER.running], [CALLER.gaveUp, CALLER.settled], [CALLER.released, CALLER.settled]);
    const miniSaw = saw([wait, CALLER.running], [CALLER.gaveUp, CALLER.running], [CALLER.released, CALLER.settled]);
    expect(compareCaller("never-answers", piSaw, miniSaw, PI_TRACE_DIFFERENCES)).toEqual({ used: ["F42"], problems: [] });
    expect(compareCaller("never-answers", piSaw, saw([wait, CALLER.running], [CALLER.gaveUp, CALLER.running], [CALLER.released, CALLER.running]), PI_TRACE_DIFFERENCES).problems).toEqual([
      `调用方：pi #2 caller ${callerLine(CALLER.released, CALLER.settled)} ≠ mini #2 caller ${callerLine(CALLER.released, CALLER.running)}`,
    ]);
    expect(compareCaller("never-answers", piSaw, saw([wait, CALLER.settled], [CALLER.gaveUp, CALLER.running], [CALLER.released, CALLER.settled]), PI_TRACE_DIFFERENCES).problems).toHaveLength(1);
    // 没有 F42 的剧本（provider 不听 AbortSignal 的那个）：放弃之后两边都得还在跑
    expect(compareCaller("never-answers-deaf", piSaw, miniSaw, PI_TRACE_DIFFERENCES).problems).toHaveLength(1);

    const piHistory = normalisePi([u("在吗"), { role: "assistant", content: [], stopReason: "aborted", errorMessage: "Request was aborted" }]);
    const miniHistory = (last: MiniMessageLike) => normaliseMini([{ role: "user", content: "在吗" }, last], [[]]);
    expect(compareTraces("never-answers", piHistory, miniHistory({ role: "assistant", content: "（迟到的回答）", stopReason: "stop" }), PI_TRACE_DIFFERENCES)).toEqual({ used: ["F43"], problems: [] });
    expect(compareTraces("never-answers", piHistory, miniHistory({ role: "assistant", content: "error: timeout", stopReason: "error" }), PI_TRACE_DIFFERENCES).problems).toHaveLength(1);
  });

  it("settlesWithin 给每次等待设上限：永远不落定的 Promise 报成还在跑，reject 也算落定", async () => {
    expect(await settlesWithin(new Promise(() => {}), 5)).toBe(false);
    expect(await settlesWithin(Promise.resolve(), 5)).toBe(true);
    expect(await settlesWithin(Promise.reject(new Error("x")), 5)).toBe(true);
  });
});

describe("保真对照的归一", () => {
  it("mini 出错的回答拆成已收到的文字和 error 那一行（D6），和 Pi 的 errorMessage 对齐", () => {
    const mini = normaliseMini([{ role: "assistant", content: "我先说一半\nerror: connection reset", stopReason: "error" }], [[]]);
    const pi = normalisePi([{ role: "assistant", content: text("我先说一半"), stopReason: "error", errorMessage: "connection reset" }]);
    expect(mini).toEqual([{ role: "assistant", stopReason: "error", text: "我先说一半", calls: [], errorText: "connection reset" }]);
    expect(pi).toEqual(mini);
  });
});

describe("保真对照的差异表", () => {
  const ALL_ROWS = [...PI_TRACE_DIFFERENCES, ...PI_FACT_DIFFERENCES];
  const ALL_IDS = [...LOOP_SCENARIOS, ...MECHANISM_SCENARIOS].map((s) => s.id);

  it("每一行列的剧本都存在，行号不重复，剧本 id 不重复，编号 F1、F2……连着不跳", () => {
    expect(new Set(ALL_IDS).size).toBe(ALL_IDS.length);
    const everyUse = new Map(ALL_ROWS.map((d) => [d.id, new Set(d.scenarios)]));
    expect(staleRows(ALL_ROWS, everyUse, ALL_IDS)).toEqual([]);
    // 编号一经发出就不改（课文和术语表引用它们）：后来补的循环行（F37 起）排在循环表的末尾，所以两张表各自递增，合起来不缺号、不重号
    const number = (id: string): number => Number(id.slice(1));
    for (const table of [PI_TRACE_DIFFERENCES, PI_FACT_DIFFERENCES]) {
      const numbers = table.map((d) => number(d.id));
      expect(numbers, "each table lists its rows in ascending order").toEqual([...numbers].sort((a, b) => a - b));
    }
    expect(ALL_ROWS.map((d) => number(d.id)).sort((a, b) => a - b)).toEqual(ALL_ROWS.map((_, i) => i + 1));
  });

  it("没有待定的行：每处差异要么在课里修掉，要么写成故意的并写明理由", () => {
    const pending = ALL_ROWS.filter((d) => d.status === "pending").map((d) => d.id);
    expect(pending, `pending rows in fidelity/listed-differences/ (fix the lessons or mark them deliberate with a reason): ${pending.join(", ")}`).toEqual([]);
    for (const d of ALL_ROWS) expect(d.reason.trim(), `${d.id} has no reason`).not.toBe("");
  });

  it("每条机制行都属于它列出的每个剧本的那个机制", () => {
    for (const d of PI_FACT_DIFFERENCES) {
      for (const id of d.scenarios) expect(MECHANISM_SCENARIOS.find((s) => s.id === id)?.mechanism, `${d.id} lists ${id}`).toBe(d.mechanism);
    }
  });

  it("没有剧本用到的行报成过时", () => {
    const usage = new Map(ALL_ROWS.map((d) => [d.id, new Set(d.scenarios.filter((s) => (d.id !== "F3" || s !== "unknown-tool") && (d.id !== "F21" || s !== "prompt-nothing")))]));
    expect(staleRows(ALL_ROWS, usage, ALL_IDS)).toEqual(["F3 过期：剧本「unknown-tool」用不到它", "F21 过期：剧本「prompt-nothing」用不到它"]);
    expect(staleRows([{ ...PI_TRACE_DIFFERENCES[0], id: "F0", scenarios: [] }], usage, ALL_IDS)).toEqual(["F0 过期：没写任何剧本"]);
    expect(staleRows([{ ...PI_TRACE_DIFFERENCES[0], id: "F0", scenarios: ["no-such-scenario"] }], usage, ALL_IDS)).toEqual(["F0 写了剧本「no-such-scenario」，可没有这个剧本"]);
  });

  it("fidelity/DIFFERENCES.md 由数据生成（npm run gen:differences）", () => {
    expect(existsSync(DOC_PATH) ? readFileSync(DOC_PATH, "utf8") : null, "run `npm run gen:differences`").toBe(renderDoc());
  });
});

// ── 机制剧本（s07–s12）────────────────────────────────────
