// 真实模型模式（live/）的测试：思考型模型。每段回答的思考过程（DeepSeek 的 reasoning_content、Ollama 的 reasoning）
// 随带 tool_calls 的那条助手消息原样带回，不上 stdout；只想不答、想到输出上限、思考字段形状不对，都说得清。
import { describe, expect, it } from "vitest";
import { type ChatMessage } from "../../live/chat-request.ts";
import { EXIT } from "../../live/main.ts";
import { DONE, event, finishChunk, reasoningChunk, textAnswer, toolChunk } from "./replay-server.ts";
import { runAgainst, sameUnderSplits, useWorkspace, utf8 } from "./support.ts";

useWorkspace();

describe("思考过程：思考型模型每段回答的思考过程跟着它走，按服务器的字段名带回去；只想不答要说出来", () => {
  /** 先想、再要一个工具的回答；想的内容分两块，中间有 emoji，好让字节切点落进字符中间。 */
  const thinkThenCall = (field: "reasoning_content" | "reasoning"): string =>
    [
      event({ choices: [{ index: 0, delta: { role: "assistant", content: null, [field]: "" } }] }),
      event(reasoningChunk("用户问项目是做什么的，", field)),
      event(reasoningChunk("先读 README🙂。", field)),
      event(toolChunk(0, { id: "call_r", name: "read", arguments: '{"path":"README.md"}' })),
      event(finishChunk("tool_calls")),
      DONE,
    ].join("");
  const thinkThenAnswer = (field: "reasoning_content" | "reasoning"): string =>
    [event(reasoningChunk("读完了，可以回答。", field)), event({ choices: [{ index: 0, delta: { content: "这是一个示例项目。", [field]: null } }] }), event(finishChunk("stop")), DONE].join("");

  it.each<["reasoning_content" | "reasoning", string]>([
    ["reasoning_content", "DeepSeek 思考模式"],
    ["reasoning", "Ollama"],
  ])("%s（%s）：带 tool_calls 的那条助手消息原样带回思考过程；思考不上 stdout；字节任意切开结果一样（fast-check）", async (field) => {
    const bytes = utf8(thinkThenCall(field));
    const whole = await sameUnderSplits(bytes, (chunks) => runAgainst((n) => ({ chunks: n === 0 ? chunks : [thinkThenAnswer(field)] })), 15);
    expect(whole.code).toBe(EXIT.answered);
    expect(whole.stdout).toBe("这是一个示例项目。\n");
    expect(whole.stderr.filter((line) => line === "  … 模型在思考")).toHaveLength(2);
    const [, user, assistant, tool] = JSON.parse(whole.bodies[1]).messages as ChatMessage[];
    expect(user).toEqual({ role: "user", content: "这个项目是做什么的？" });
    expect(assistant).toEqual({
      role: "assistant",
      content: null,
      [field]: "用户问项目是做什么的，先读 README🙂。",
      tool_calls: [{ id: "call_r", type: "function", function: { name: "read", arguments: '{"path":"README.md"}' } }],
    });
    expect(tool).toMatchObject({ role: "tool", tool_call_id: "call_r" });
    expect(whole.bodies[1]).not.toContain(field === "reasoning" ? "reasoning_content" : '"reasoning"'); // 不替服务器发明另一个字段
  });

  it("只想不答：不打空行、不以 0 退出，stderr 说模型只想了没答（想了多少、finish_reason）；字节任意切开结果一样（fast-check）", async () => {
    const onlyThinking = [event(reasoningChunk("嗯……让我想想🙂，")), event(reasoningChunk("还在想。")), event(finishChunk("stop")), DONE].join("");
    const whole = await sameUnderSplits(utf8(onlyThinking), (chunks) => runAgainst(() => ({ chunks })));
    expect(whole.code).toBe(EXIT.failed);
    expect(whole.stdout).toBe("");
    expect(whole.stderr.at(-1)).toBe('error: the model only reasoned and gave no answer (13 characters of reasoning; finish_reason "stop")');
  });

  it("想到输出上限还没想完：说清是长度用完了；什么都没给的空回答也说出来", async () => {
    const cut = await runAgainst(() => ({ chunks: [[event(reasoningChunk("想啊想")), event(finishChunk("length")), DONE].join("")] }));
    expect(cut.code).toBe(EXIT.failed);
    expect(cut.stderr.at(-1)).toBe('error: the model only reasoned and gave no answer (3 characters of reasoning; finish_reason "length": it ran out of output length while still thinking)');
    const empty = await runAgainst(() => ({ chunks: [textAnswer([])] }));
    expect(empty.code).toBe(EXIT.failed);
    expect(empty.stdout).toBe("");
    expect(empty.stderr.at(-1)).toBe('error: the model sent an empty answer (no text and no tool calls; finish_reason "stop")');
  });

  it("思考字段不是字符串（个别代理给对象或 null）：当没有，不为它判整个流坏了", async () => {
    const odd = [event({ choices: [{ index: 0, delta: { reasoning: { summary: "x" }, reasoning_content: null, content: "答" } }] }), event(finishChunk("stop")), DONE].join("");
    const run = await runAgainst(() => ({ chunks: [odd] }));
    expect(run.code).toBe(EXIT.answered);
    expect(run.stdout).toBe("答\n");
    expect(run.stderr).not.toContain("  … 模型在思考");
  });
});
