// 发给 OpenAI 兼容服务器的请求：Chat Completions 的消息、工具和思考过程的写法，以及课程的 ProviderInput 怎么变成它们。
// 课程的助手消息只存文字，不存它要过哪些工具；补回 tool_calls 和思考过程靠 provider 记下的调用（见 toChatMessages）。
import type { ProviderInput, ProviderMessage, ToolSpec } from "../s12_packages/code.ts";

/** 请求里的一次工具调用：挂在助手消息上，tool 消息靠 id 对回它。 */
export type ChatToolCall = { id: string; type: "function"; function: { name: string; arguments: string } };

/**
 * 一段回答的思考过程，按服务器用的字段名原样存：DeepSeek 写 reasoning_content，Ollama（以及新版 vLLM、OpenRouter）
 * 写 reasoning。回传时用同一个字段名，服务器才认得。
 */
export type Reasoning = { reasoning_content?: string; reasoning?: string };

/** 思考过程可能出现在哪些字段里。 */
export const REASONING_FIELDS = ["reasoning_content", "reasoning"] as const;

/** 请求里的一条消息。 */
export type ChatMessage =
  | { role: "system" | "user"; content: string }
  | ({ role: "assistant"; content: string | null; tool_calls?: ChatToolCall[] } & Reasoning)
  | { role: "tool"; tool_call_id: string; content: string };

/** provider 记得的一次调用：调用本身，和发出它的那段回答的思考过程（同一段回答的几个调用共用一份）。 */
export type RememberedCall = { call: ChatToolCall; reasoning?: Reasoning };

/** 请求里的一个工具：ToolSpec 的参数全是必填的字符串，和 ToolRegistry.run 的校验一致。 */
export type ChatTool = {
  type: "function";
  function: {
    name: string;
    description: string;
    parameters: {
      type: "object";
      properties: Record<string, { type: "string"; description: string }>;
      required: string[];
      additionalProperties: false;
    };
  };
};

export type ChatRequest = { model: string; messages: ChatMessage[]; stream: true; tools?: ChatTool[] };

/** ToolSpec → function 定义。 */
export function toChatTools(specs: ToolSpec[]): ChatTool[] {
  return specs.map((spec) => ({
    type: "function",
    function: {
      name: spec.name,
      description: spec.description,
      parameters: {
        type: "object",
        properties: Object.fromEntries(Object.entries(spec.input).map(([name, description]) => [name, { type: "string", description }])),
        required: Object.keys(spec.input),
        additionalProperties: false,
      },
    },
  }));
}

/**
 * 课程的消息 → Chat Completions 的消息。
 *
 * 课程的 AssistantMessage 只存文字，不存它要过哪些工具；OpenAI 却要求 tool 消息前面紧挨着一条带 tool_calls 的
 * 助手消息。做法：provider 记住自己发出过的每个调用（按 id，见 OpenAICompatibleProvider），这里每遇到一段连续的
 * toolResult，就按它们的 toolCallId 把调用找回来，挂到紧挨在前面的那条助手消息上（前面不是助手消息就补一条空的）。
 * 找不回来的结果（历史来自别的 provider，或者换过 provider 实例）不能当 tool 消息发，改成一条 user 消息说明来历。
 *
 * 思考过程跟着调用一起找回来，挂到同一条助手消息上：DeepSeek 的思考模式要求带 tool_calls 的助手消息原样带回它的
 * reasoning_content，否则回 400；Ollama 把 reasoning 字段转成模型模板里的 thinking。没调工具的回答不回传思考过程：
 * DeepSeek 的文档说那时传了也被忽略（旧的 deepseek-reasoner 甚至会报 400）。
 */
export function toChatMessages(input: ProviderInput, recall: (toolCallId: string) => RememberedCall | undefined): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (input.systemPrompt !== "") out.push({ role: "system", content: input.systemPrompt });
  const messages = input.messages;
  for (let i = 0; i < messages.length; ) {
    const message = messages[i];
    if (message.role !== "toolResult") {
      out.push({ role: message.role, content: message.content });
      i++;
      continue;
    }
    const run: Array<Extract<ProviderMessage, { role: "toolResult" }>> = [];
    while (i < messages.length) {
      const m = messages[i];
      if (m.role !== "toolResult") break;
      run.push(m);
      i++;
    }
    const known = run.flatMap((r) => {
      const remembered = recall(r.toolCallId);
      return remembered === undefined ? [] : [{ ...remembered, result: r }];
    });
    if (known.length > 0) {
      const before = out.at(-1);
      const calls = known.map((k) => k.call);
      let carrier: Extract<ChatMessage, { role: "assistant" }>;
      if (before?.role === "assistant" && before.tool_calls === undefined) {
        carrier = before;
        carrier.tool_calls = calls;
        if (carrier.content === "") carrier.content = null;
      } else {
        carrier = { role: "assistant", content: null, tool_calls: calls };
        out.push(carrier);
      }
      Object.assign(carrier, known.find((k) => k.reasoning !== undefined)?.reasoning);
      for (const { result } of known) out.push({ role: "tool", tool_call_id: result.toolCallId, content: result.content });
    }
    for (const r of run) {
      if (known.some((k) => k.result === r)) continue;
      out.push({ role: "user", content: `Result of an earlier tool call (${r.toolCallId}):\n${r.content}` });
    }
  }
  return out;
}
