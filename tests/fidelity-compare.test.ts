// 保真对照（npm run fidelity）的比较逻辑本身：用手写的轨迹证明它真的会报错。
// 这里不装、不跑 Pi——fidelity/compare.ts、differences.ts、scenarios.ts、doc.ts 都不引用 Pi。
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  asRequest,
  compareRequests,
  compareTraces,
  type MiniMessageLike,
  normaliseMini,
  normaliseMiniRequest,
  normalisePi,
  pairingProblems,
  type PiMessageLike,
  staleRows,
} from "../fidelity/compare.ts";
import { DIFFERENCES } from "../fidelity/differences.ts";
import { DOC_PATH, renderDoc } from "../fidelity/doc.ts";
import { SCENARIOS } from "../fidelity/scenarios.ts";

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

const compareOneTool = (mini: MiniMessageLike[], calls: string[][] = CALLS_ONE_TOOL, differences = DIFFERENCES) =>
  compareTraces("one-tool", normalisePi(PI_ONE_TOOL), normaliseMini(mini, calls), differences);

describe("fidelity comparison: a correct mini trace passes", () => {
  it("one-tool: only the listed system-message difference (F1)", () => {
    expect(compareOneTool(MINI_ONE_TOOL)).toEqual({ used: ["F1"], problems: [] });
  });
});

describe("fidelity comparison: a wrong mini trace is reported", () => {
  it("the intermediate assistant message dropped", () => {
    const mini = MINI_ONE_TOOL.filter((_, i) => i !== 1);
    const { problems } = compareOneTool(mini, [[]]);
    expect(problems).toContain("mini pairing #1: toolResult call_1 answers no call of the assistant before it");
    expect(problems).toContain('pi #2 assistant[toolUse] "我调一下 echo。" calls=call_1 is missing from mini');
  });

  it("a toolCallId that answers no call", () => {
    const mini = MINI_ONE_TOOL.map((m) => (m.role === "toolResult" ? { ...m, toolCallId: "call_2" } : m));
    const { problems } = compareOneTool(mini);
    expect(problems).toContain("mini pairing #2: toolResult call_2 answers no call of the assistant before it");
    expect(problems).toContain("mini pairing #1: call call_1 has no toolResult");
    expect(problems).toContain('pi #3 toolResult call_1 ok "echo:hi" ≠ mini #2 toolResult call_2 ok "echo:hi"');
  });

  it("the error flag flipped", () => {
    const mini = MINI_ONE_TOOL.map((m) => (m.role === "toolResult" ? { ...m, content: "error: echo:hi" } : m));
    expect(compareOneTool(mini).problems).toEqual(['pi #3 toolResult call_1 ok "echo:hi" ≠ mini #2 toolResult call_1 error "echo:hi"']);
  });

  it("a different stopReason", () => {
    const mini = MINI_ONE_TOOL.map((m, i) => (i === 3 ? { ...m, stopReason: "error" } : m));
    expect(compareOneTool(mini).problems).toEqual(['pi #4 assistant[stop] "echo 回了 echo:hi。" ≠ mini #3 assistant[error] "echo 回了 echo:hi。"']);
  });

  it("an extra message at the end", () => {
    const mini = [...MINI_ONE_TOOL, { role: "assistant" as const, content: "还有一句。", stopReason: "stop" }];
    expect(compareOneTool(mini, [...CALLS_ONE_TOOL, []]).problems).toEqual(['mini #4 assistant[stop] "还有一句。" is not in pi']);
  });

  it("results in the wrong order", () => {
    const trace = normaliseMini(
      [
        { role: "user", content: "x" },
        { role: "assistant", content: "", stopReason: "toolUse" },
        { role: "toolResult", toolCallId: "call_2", content: "b" },
        { role: "toolResult", toolCallId: "call_1", content: "a" },
      ],
      [["call_1", "call_2"]],
    );
    expect(pairingProblems(trace)).toEqual(["#2: toolResult call_2 is out of call order (expected call_1)"]);
  });

  it("an unlisted difference: without row F1 the system message is a DIFF", () => {
    const { problems } = compareOneTool(
      MINI_ONE_TOOL,
      CALLS_ONE_TOOL,
      DIFFERENCES.filter((d) => d.id !== "F1"),
    );
    expect(problems).toEqual(["pi #0 system is missing from mini"]);
  });
});

describe("fidelity comparison: a listed difference only covers what it describes", () => {
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
      DIFFERENCES,
    );

  it("F3 accepts the renamed text for the same tool", () => {
    expect(unknownTool('error: unknown tool "nope"')).toEqual({ used: ["F3"], problems: [] });
  });

  it("F3 does not accept another tool's name", () => {
    expect(unknownTool('error: unknown tool "nada"').problems).toHaveLength(1);
  });

  it("a row applies only to the scenarios it lists", () => {
    expect(unknownTool('error: unknown tool "nope"', "one-tool").problems).toHaveLength(1);
  });

  it("F4 needs the same list of argument problems", () => {
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
        DIFFERENCES,
      );
    expect(run('error: invalid arguments for tool "echo": argument "text" is missing; unexpected argument "file"').problems).toEqual([]);
    expect(run('error: invalid arguments for tool "echo": argument "text" is missing').problems).toHaveLength(1);
    expect(run('error: invalid arguments for tool "echo": argument "path" is missing; unexpected argument "file"').problems).toHaveLength(1);
  });

  it("F12 covers a stop after exactly 8 turns, not 7", () => {
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
    expect(compareTraces("never-stops", normalisePi(piMessages), mini(8), DIFFERENCES)).toEqual({ used: ["F12"], problems: [] });
    expect(compareTraces("never-stops", normalisePi(piMessages), mini(7), DIFFERENCES).problems.length).toBeGreaterThan(0);
  });
});

describe("fidelity comparison: what the model sees on each request", () => {
  // 第二次请求：Pi 的模型看到 system、user、带 toolCall 的助手消息、结果；mini Pi 的模型看到的助手消息只有文字
  const piRequests = [PI_ONE_TOOL.slice(0, 2), PI_ONE_TOOL.slice(0, 4)].map((m) => asRequest(normalisePi(m)));
  const miniInputs = [MINI_ONE_TOOL.slice(0, 1), MINI_ONE_TOOL.slice(0, 3)].map((m) => m.map(({ role, content, toolCallId }) => ({ role, content, toolCallId })));

  it("only the listed differences: the system message (F1) and the calls the model cannot see (F13)", () => {
    expect(compareRequests("one-tool", piRequests, miniInputs.map(normaliseMiniRequest), DIFFERENCES)).toEqual({ used: ["F1", "F13"], problems: [] });
  });

  it("a result missing from the second request is reported, with the request number", () => {
    const wrong = [miniInputs[0], miniInputs[1].slice(0, 2)].map(normaliseMiniRequest);
    expect(compareRequests("one-tool", piRequests, wrong, DIFFERENCES).problems).toEqual([
      'request 2: pi #3 toolResult call_1 ok "echo:hi" is missing from mini',
    ]);
  });

  it("F13 applies to requests only: a history whose assistant lost its calls is still a DIFF", () => {
    const { problems } = compareOneTool(MINI_ONE_TOOL, [[], []]);
    expect(problems).toContain('pi #2 assistant[toolUse] "我调一下 echo。" calls=call_1 ≠ mini #1 assistant[toolUse] "我调一下 echo。"');
  });
});

describe("fidelity normalisation", () => {
  it("a mini error answer splits into the text so far and the error line (D6); Pi's errorMessage lines up", () => {
    const mini = normaliseMini([{ role: "assistant", content: "我先说一半\nerror: connection reset", stopReason: "error" }], [[]]);
    const pi = normalisePi([{ role: "assistant", content: text("我先说一半"), stopReason: "error", errorMessage: "connection reset" }]);
    expect(mini).toEqual([{ role: "assistant", stopReason: "error", text: "我先说一半", calls: [], errorText: "connection reset" }]);
    expect(pi).toEqual(mini);
  });
});

describe("fidelity differences table", () => {
  it("every row names existing scenarios, ids are unique, scenario ids are unique", () => {
    const ids = SCENARIOS.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    const everyUse = new Map(DIFFERENCES.map((d) => [d.id, new Set(d.scenarios)]));
    expect(staleRows(DIFFERENCES, everyUse, ids)).toEqual([]);
  });

  it("no row is pending: every difference is fixed in the lessons or listed as deliberate with a reason", () => {
    const pending = DIFFERENCES.filter((d) => d.status === "pending").map((d) => d.id);
    expect(pending, `pending rows in fidelity/differences.ts (fix the lessons or mark them deliberate with a reason): ${pending.join(", ")}`).toEqual([]);
    for (const d of DIFFERENCES) expect(d.reason.trim(), `${d.id} has no reason`).not.toBe("");
  });

  it("a row no scenario needs is reported as stale", () => {
    const ids = SCENARIOS.map((s) => s.id);
    const usage = new Map(DIFFERENCES.map((d) => [d.id, new Set(d.scenarios.filter((s) => d.id !== "F3" || s !== "unknown-tool"))]));
    expect(staleRows(DIFFERENCES, usage, ids)).toEqual(['F3 is stale: scenario "unknown-tool" never needed it']);
    expect(staleRows([{ ...DIFFERENCES[0], id: "F0", scenarios: [] }], usage, ids)).toEqual(["F0 is stale: it lists no scenario"]);
  });

  it("fidelity/DIFFERENCES.md is generated from the data (npx tsx fidelity/doc.ts)", () => {
    expect(existsSync(DOC_PATH) ? readFileSync(DOC_PATH, "utf8") : null, "run `npx tsx fidelity/doc.ts`").toBe(renderDoc());
  });
});
