// 拼一个 Agent、给它一个照剧本（tooling/screenplay.ts）出事件的 provider。测试写一次，对「从引入它的那一课起」的每一课都跑：
// 这一课有哪些零件由功能表（tooling/features.ts）说，缺的零件用最朴素的默认值。行为测试、坏输入表、性质测试、场景、
// 链路检查、保真对照、毕业检查和 bench 的工作量都用它拼 agent。
import { has } from "./features.ts";
import type { Event, Hooks, Input, LessonModule, Msg, OutputLike, ProviderLike, RuntimeEventLike, TestAgent, ToolLike } from "./lesson.ts";
import type { Script, Step } from "./screenplay.ts";

/** 按剧本出事件的 provider；inputs 记下它每次收到的输入（深拷贝），供断言。没有 stream 的课（s01–s02）用 complete。 */
export function scriptedProvider(id: string, script: Script): { provider: ProviderLike; inputs: Input[] } {
  const inputs: Input[] = [];
  const next = (input: Input): Step[] => {
    inputs.push(structuredClone(input));
    return script(input, inputs.length - 1);
  };
  if (!has(id, "stream")) {
    return {
      inputs,
      provider: {
        async complete(input: Input): Promise<string> {
          let out = "";
          for (const step of next(input)) {
            if (step.type === "throw") throw new Error(step.message);
            if (step.type === "text_delta") out += step.text;
          }
          return out;
        },
      },
    };
  }
  return {
    inputs,
    provider: {
      async *stream(input: Input): AsyncGenerator<Event> {
        for (const step of next(input)) {
          // 剧本里也可以放坏事件（null、字符串……），原样交出去
          if (typeof step === "object" && step !== null && step.type === "throw") throw new Error(step.message);
          yield step as Event;
        }
      },
    },
  };
}

/**
 * 让一个（事件流的）provider 第一次被问到时先不开口，等 release() 放行才照常出事件；之后每次马上照常。
 * 「一直不回话的 provider」（core 只能等）和「等的时候又来一轮」都拿它来造。
 */
export function gateFirstRequest(inner: ProviderLike): { provider: ProviderLike; release: () => void } {
  let release = (): void => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  let asked = 0;
  const provider: ProviderLike = {
    async *stream(input: Input): AsyncGenerator<Event> {
      if (asked++ === 0) await gate;
      if (inner.stream === undefined) throw new Error("gateFirstRequest needs a provider with stream()");
      yield* inner.stream(input);
    },
  };
  return { provider, release: () => release() };
}

/** 包一层任意 provider（比如课里的 createFakeProvider()），记下它每次收到的输入（深拷贝），事件原样转发。 */
export function recordingProvider(inner: ProviderLike): { provider: ProviderLike; inputs: Input[] } {
  const inputs: Input[] = [];
  const provider: ProviderLike = {};
  const complete = inner.complete?.bind(inner);
  const stream = inner.stream?.bind(inner);
  if (complete !== undefined) {
    provider.complete = (input) => {
      inputs.push(structuredClone(input));
      return complete(input);
    };
  }
  if (stream !== undefined) {
    provider.stream = (input) => {
      inputs.push(structuredClone(input));
      return stream(input);
    };
  }
  return { provider, inputs };
}

export type AgentParts = {
  provider: ProviderLike;
  tools?: ToolLike[];
  hooks?: Hooks;
  resources?: { kind: "agents" | "skill" | "prompt"; name: string; content: string }[];
  trust?: "trusted" | "untrusted";
  mode?: { render(events: RuntimeEventLike[]): void };
};

/** 按这一课有的零件拼一个 Agent：缺的零件用最朴素的默认值。lines 收下 Output 写出的每一行。 */
export function makeAgent(id: string, mod: LessonModule, parts: AgentParts): { agent: TestAgent; lines: string[]; messages: () => Msg[] } {
  const lines: string[] = [];
  const output: OutputLike = { log: (line) => void lines.push(line) };
  const agent: TestAgent = { state: { messages: has(id, "sessionTree") ? new mod.SessionTree() : [] }, provider: parts.provider, output };
  if (has(id, "tools")) {
    agent.registry = new mod.ToolRegistry();
    for (const tool of parts.tools ?? []) agent.registry.register(tool);
  }
  if (has(id, "hooks")) agent.hooks = parts.hooks ?? {};
  if (has(id, "model")) agent.state.model = "test-model";
  if (has(id, "resources")) agent.loader = new mod.ResourceLoader(parts.resources ?? []);
  if (has(id, "extensions") && agent.registry !== undefined) agent.runtime = new mod.ExtensionRuntime(agent.registry);
  if (has(id, "modes")) agent.mode = parts.mode ?? new mod.PrintMode(output);
  if (has(id, "trust")) agent.trust = parts.trust ?? "trusted";
  if (has(id, "packages")) agent.packages = [];
  return { agent, lines, messages: () => currentMessages(agent) };
}

/** 当前路径上的消息，不管这一课的历史是数组（s01–s06）还是会话树（s07 起）。 */
export function currentMessages(agent: TestAgent): Msg[] {
  const m = agent.state.messages;
  return Array.isArray(m) ? m : m.currentPath();
}

/** 往历史里加一条消息，不管这一课的历史是数组（s01–s06）还是会话树（s07 起）。 */
export function pushMessage(agent: TestAgent, msg: Msg): void {
  const m = agent.state.messages;
  if (Array.isArray(m)) m.push(msg);
  else m.append(msg);
}

/** 一个按参数回文字的工具；calls 记下 handler 被调用的次数。 */
export function echoTool(name: string, params: string[] = ["text"]): { tool: ToolLike; calls: Record<string, string>[] } {
  const calls: Record<string, string>[] = [];
  return {
    calls,
    tool: {
      spec: { name, description: `${name} tool`, input: Object.fromEntries(params.map((p) => [p, p])) },
      handler: (input) => {
        calls.push(input);
        return `${name}:${params.map((p) => input[p]).join(",")}`;
      },
    },
  };
}
