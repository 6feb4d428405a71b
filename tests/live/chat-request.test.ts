// 真实模型模式（live/）的测试：发出去的请求怎么拼（live/chat-request.ts）。课程的助手消息只存文字，不存要过哪些工具，
// toChatMessages 按 toolCallId 把 provider 记下的调用（连同那段回答的思考过程）补回紧挨着的助手消息上；ToolSpec 变成 function 定义。
import { describe, expect, it } from "vitest";
import { type ChatMessage, type ChatToolCall, type RememberedCall, toChatMessages, toChatTools } from "../../live/chat-request.ts";
import type { ProviderMessage } from "../../s12_packages/code.ts";

describe("补回 tool_calls：课程的助手消息只存文字，OpenAI 要求 tool 消息前有带 tool_calls 的助手消息，思考过程跟着调用回去", () => {
  const remembered: Record<string, ChatToolCall> = {
    c1: { id: "c1", type: "function", function: { name: "read", arguments: '{"path":"a"}' } },
    c2: { id: "c2", type: "function", function: { name: "ls", arguments: '{"path":"."}' } },
  };
  const recall = (id: string): RememberedCall | undefined => (remembered[id] === undefined ? undefined : { call: remembered[id] });
  /** 课程的一段历史交给 toChatMessages（没有工具；系统提示默认为空，不发 system 消息）。 */
  const chat = (messages: ProviderMessage[], remember = recall, systemPrompt = ""): ChatMessage[] => toChatMessages({ systemPrompt, tools: [], messages }, remember);

  it("每段连续的 toolResult：调用挂到前面那条助手消息上（空文字变 null），结果成为 tool 消息", () => {
    const messages = chat(
      [
        { role: "user", content: "q" },
        { role: "assistant", content: "" },
        { role: "toolResult", toolCallId: "c1", content: "A" },
        { role: "toolResult", toolCallId: "c2", content: "B" },
        { role: "assistant", content: "好的" },
      ],
    );
    expect(messages).toEqual([
      { role: "user", content: "q" },
      { role: "assistant", content: null, tool_calls: [remembered.c1, remembered.c2] },
      { role: "tool", tool_call_id: "c1", content: "A" },
      { role: "tool", tool_call_id: "c2", content: "B" },
      { role: "assistant", content: "好的" },
    ]);
  });

  it("记不得的调用（历史来自别的 provider）：结果改成一条说明来历的 user 消息；前面不是助手消息就补一条", () => {
    const messages = chat(
      [
        { role: "user", content: "q" },
        { role: "toolResult", toolCallId: "c1", content: "A" },
        { role: "toolResult", toolCallId: "zz", content: "Z" },
      ],
      recall,
      "s",
    );
    expect(messages).toEqual([
      { role: "system", content: "s" },
      { role: "user", content: "q" },
      { role: "assistant", content: null, tool_calls: [remembered.c1] },
      { role: "tool", tool_call_id: "c1", content: "A" },
      { role: "user", content: "Result of an earlier tool call (zz):\nZ" },
    ]);
  });

  it("ToolSpec → function 定义：参数全是必填字符串", () => {
    expect(toChatTools([{ name: "grep", description: "d", input: { pattern: "p", path: "q" } }])[0].function.parameters).toEqual({
      type: "object",
      properties: { pattern: { type: "string", description: "p" }, path: { type: "string", description: "q" } },
      required: ["pattern", "path"],
      additionalProperties: false,
    });
  });

  it("toChatMessages：思考过程只挂在发出调用的那条助手消息上，两个字段都出现过就都带回", () => {
    const call: ChatToolCall = { id: "c1", type: "function", function: { name: "ls", arguments: '{"path":"."}' } };
    const reasoning = { reasoning_content: "想 A", reasoning: "想 B" };
    const messages = chat(
      [
        { role: "user", content: "q" },
        { role: "assistant", content: "看一下" },
        { role: "toolResult", toolCallId: "c1", content: "a.ts" },
        { role: "assistant", content: "好了" },
      ],
      (id) => (id === "c1" ? { call, reasoning } : undefined),
    );
    expect(messages).toEqual([
      { role: "user", content: "q" },
      { role: "assistant", content: "看一下", tool_calls: [call], reasoning_content: "想 A", reasoning: "想 B" },
      { role: "tool", tool_call_id: "c1", content: "a.ts" },
      { role: "assistant", content: "好了" },
    ]);
  });
});
