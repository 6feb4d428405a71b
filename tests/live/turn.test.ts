// 真实模型模式（live/）的测试：完整的一轮。走完整 s12 链的两轮工具对话、runLive 的设置和退出码、
// 坏的工具参数（回给模型让它改了再调）、问满次数。
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type ChatMessage } from "../../live/chat-request.ts";
import { ENV, readLiveConfig } from "../../live/config.ts";
import { EXIT, createLiveAgent, maxTurnsMessage, runLive } from "../../live/main.ts";
import { createWorkspaceTools } from "../../live/tools.ts";
import { DEFAULT_MAX_TURNS, ToolRegistry, runOneTurn } from "../../s12_packages/code.ts";
import { DONE, type ServerReply, event, finishChunk, textAnswer, textChunk, toolChunk } from "./replay-server.ts";
import { KEY, type LiveRun, TOOL_ANSWER, callAnswer, liveIO, runAgainst, sameUnderSplits, useWorkspace, utf8, withServer, workspace } from "./support.ts";

useWorkspace();

describe("两轮工具对话，走真正的 s12 runOneTurn", () => {
  it("第一次回答要两个工具，结果带着补回的 tool_calls 发回去，第二次回答收尾", async () => {
    await withServer(
      (n) => ({ chunks: [n === 0 ? TOOL_ANSWER : textAnswer(["这是一个", "示例项目。"])] }),
      async (server) => {
        const read = readLiveConfig({ [ENV.baseUrl]: server.baseUrl, [ENV.model]: "test-model", [ENV.apiKey]: KEY });
        if (!read.ok) throw new Error(read.problems.join("\n"));
        const io = liveIO({});
        const { agent } = createLiveAgent(read.config, io);
        const reply = await runOneTurn(agent, "这个项目是做什么的？");

        expect(reply).toEqual({ role: "assistant", content: "这是一个示例项目。", stopReason: "stop" });
        // 每段回答边到边打，各自以换行收尾；工具进度在 stderr
        expect(io.stdout_()).toBe("我先看一下 README🙂，再列目录。\n这是一个示例项目。\n");
        expect(agent.state.messages.currentPath().map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult", "assistant"]);
        const listing = run(".");
        expect(server.requests).toHaveLength(2);
        expect((server.requests[1].body as { messages: ChatMessage[] }).messages.slice(1)).toEqual([
          { role: "user", content: "这个项目是做什么的？" },
          {
            role: "assistant",
            content: "我先看一下 README🙂，再列目录。",
            tool_calls: [
              { id: "call_a", type: "function", function: { name: "read", arguments: '{"path": "README.md"}' } },
              { id: "call_b", type: "function", function: { name: "ls", arguments: '{"path": "."}' } },
            ],
          },
          { role: "tool", tool_call_id: "call_a", content: "# demo\n一个示例项目。TODO: 写文档\n" },
          { role: "tool", tool_call_id: "call_b", content: listing },
        ]);
        expect(io.err).toContain('  → read {"path":"README.md"}');
      },
    );
    function run(path: string): string {
      const registry = new ToolRegistry();
      for (const tool of createWorkspaceTools(workspace.work)) registry.register(tool);
      return registry.run({ id: "x", name: "ls", input: { path } });
    }
  });

  it("服务器每次都从 call_0 数起：id 换成唯一的，第三次请求里调用和结果一一对得上", async () => {
    const call = (name: string, args: string): string =>
      [event(toolChunk(0, { id: "call_0", name, arguments: args })), event(finishChunk("tool_calls")), DONE].join("");
    await withServer(
      (n) => ({ chunks: [[call("read", '{"path":"README.md"}'), call("ls", '{"path":"src"}'), textAnswer(["好了"])][n]] }),
      async (server) => {
        const read = readLiveConfig({ [ENV.baseUrl]: server.baseUrl, [ENV.model]: "m" });
        if (!read.ok) throw new Error(read.problems.join("\n"));
        const reply = await runOneTurn(createLiveAgent(read.config, liveIO({})).agent, "看看");
        expect(reply.content).toBe("好了");
        const messages = (server.requests[2].body as { messages: ChatMessage[] }).messages;
        expect(messages.map((m) => (m.role === "assistant" ? m.tool_calls?.map((c) => c.id) : m.role === "tool" ? m.tool_call_id : m.role))).toEqual([
          "system",
          "user",
          ["call_0"],
          "call_0",
          ["call_0_2"],
          "call_0_2",
        ]);
      },
    );
  });
});

describe("runLive：设置从环境变量来，缺了就说清楚并以非零退出；回答在 stdout，开场、进度和错误在 stderr", () => {
  it("什么都没设：列出缺的变量、给例子，退出码 2，不发请求", async () => {
    const io = liveIO({});
    expect(await runLive(["你好"], io)).toBe(2);
    expect(io.out).toEqual([]);
    const text = io.err.join("\n");
    for (const name of [ENV.baseUrl, ENV.model, ENV.apiKey]) expect(text).toContain(`${name} 没有设置`);
    expect(text).toContain('npm run -s live -- "');
  });

  it("远程地址必须有密钥，本机地址可以不设；超时、信任写错了也点名；没给问题打用法", async () => {
    expect(readLiveConfig({ [ENV.baseUrl]: "https://api.deepseek.com/v1", [ENV.model]: "deepseek-chat" })).toEqual({
      ok: false,
      problems: [expect.stringContaining(`${ENV.apiKey} 没有设置`)],
    });
    expect(readLiveConfig({ [ENV.baseUrl]: "http://localhost:8080/v1", [ENV.model]: "m" })).toMatchObject({ ok: true, config: { apiKey: undefined, timeoutMs: 120_000, trust: "untrusted" } });
    expect(readLiveConfig({ [ENV.baseUrl]: "ftp://x", [ENV.model]: "m", [ENV.timeoutMs]: "soon", [ENV.trust]: "yes" })).toEqual({
      ok: false,
      problems: [`${ENV.baseUrl} 不是 http(s) 地址：ftp://x/`, `${ENV.timeoutMs} 要是正整数（毫秒），现在是 "soon"`, `${ENV.trust} 只能是 trusted 或 untrusted，现在是 "yes"`],
    });
    const io = liveIO({ [ENV.baseUrl]: "http://127.0.0.1:1/v1", [ENV.model]: "m" });
    expect(await runLive([], io)).toBe(2);
    expect(io.err).toEqual(['用法：npm run -s live -- "你的问题"']);
  });

  it("跑通一轮：stdout 只有模型的回答，stderr 有开场一行和工具进度，退出码 0；不信任时 AGENTS.md 不进系统提示；工具结果里的密钥打码", async () => {
    writeFileSync(join(workspace.work, "AGENTS.md"), `这个项目用 pnpm。部署口令：${KEY}`);
    try {
      await withServer(
        (n) => ({ chunks: [n % 2 === 0 ? [event(toolChunk(0, { id: "c", name: "read", arguments: '{"path":"AGENTS.md"}' })), event(finishChunk("tool_calls")), DONE].join("") : textAnswer(["读完了。"])] }),
        async (server) => {
          const env = { [ENV.baseUrl]: server.baseUrl, [ENV.model]: "test-model", [ENV.apiKey]: KEY };
          const io = liveIO(env);
          expect(await runLive(["这个", "项目？"], io)).toBe(0);
          expect(io.stdout_()).toBe("读完了。\n");
          expect(io.err).toEqual([
            `mini Pi · 模型 test-model @ ${server.baseUrl} · 工作目录 ${workspace.work}`,
            "AGENTS.md 没有加载：项目默认不信任，确认它可信后设 MINI_PI_TRUST=trusted",
            '  → read {"path":"AGENTS.md"}',
            "  ← 22 chars",
          ]);
          const toolMessage = (server.requests[1].body as { messages: ChatMessage[] }).messages.at(-1);
          expect(toolMessage).toEqual({ role: "tool", tool_call_id: "c", content: "这个项目用 pnpm。部署口令：sk-***" });
          const system = (body: unknown): string => (body as { messages: ChatMessage[] }).messages[0].content ?? "";
          expect(system(server.requests[0].body)).not.toContain("pnpm");

          const trusted = liveIO({ ...env, [ENV.trust]: "trusted" });
          expect(await runLive(["再问一次"], trusted)).toBe(0);
          expect(trusted.err[1]).toBe("AGENTS.md 已加载（MINI_PI_TRUST=trusted）");
          expect(system(server.requests[2].body)).toContain("这个项目用 pnpm。");
          for (const line of [...io.out, ...io.err, ...trusted.out, ...trusted.err]) expect(line).not.toContain(KEY);
        },
      );
    } finally {
      rmSync(join(workspace.work, "AGENTS.md"));
    }
  });

  it("回答以出错告终：error 那一行在 stderr（它不是回答），stdout 什么都没有，退出码 1，服务器回显的密钥被换成 ***", async () => {
    await withServer(
      () => ({ status: 401, headers: { "content-type": "application/json" }, chunks: [JSON.stringify({ error: { message: `bad key ${KEY}` } })] }),
      async (server) => {
        const io = liveIO({ [ENV.baseUrl]: server.baseUrl, [ENV.model]: "m", [ENV.apiKey]: KEY });
        expect(await runLive(["hi"], io)).toBe(EXIT.failed);
        expect(io.stdout_()).toBe("");
        expect(io.err.at(-1)).toBe("error: HTTP 401 Unauthorized: bad key *** (check MINI_PI_API_KEY, and that this key may use MINI_PI_MODEL)");
        for (const line of [...io.out, ...io.err]) expect(line).not.toContain(KEY);
      },
    );
  });

  it("回答说到一半断了：收到的半句留在 stdout（以换行收尾），error 那一行在 stderr，退出码 1", async () => {
    await withServer(
      () => ({ chunks: [event(textChunk("说到一半"))], then: "cut" }),
      async (server) => {
        const io = liveIO({ [ENV.baseUrl]: server.baseUrl, [ENV.model]: "m" });
        expect(await runLive(["hi"], io)).toBe(EXIT.failed);
        expect(io.stdout_()).toBe("说到一半\n");
        expect(io.err.at(-1)).toMatch(/^error: connection lost after 89 bytes: terminated/);
      },
    );
  });
});

describe("坏的工具参数：回一条 error 结果（错在哪、收到的是什么，截短），模型改了再调，这一轮照常往下走", () => {
  type Tail = { assistant: ChatMessage; tool: ChatMessage };
  /** 第 n 个请求里，最后一条助手消息和它后面的那条 tool 消息。 */
  const tail = (run: LiveRun, n: number): Tail => {
    const messages = JSON.parse(run.bodies[n]).messages as ChatMessage[];
    return { assistant: messages.at(-2) as ChatMessage, tool: messages.at(-1) as ChatMessage };
  };
  /** 每个请求里回传的每个调用，参数都得是合法 JSON：Ollama 解析不了就整个请求回 400（"invalid tool call arguments"）。 */
  const argumentsAllJson = (run: LiveRun): void => {
    for (const body of run.bodies) {
      for (const m of JSON.parse(body).messages as ChatMessage[]) {
        if (m.role === "assistant") for (const call of m.tool_calls ?? []) expect(() => JSON.parse(call.function.arguments)).not.toThrow();
      }
    }
  };
  const RETRY = "call the tool again with a JSON object of strings";

  it("坏 JSON：模型收到 error 结果，改了再调，第三次请求收尾；退出码 0；字节任意切开结果一样（fast-check）", async () => {
    const broken = callAnswer("read", '{"path": "src/', "call_9", "我看看🙂。");
    const script = (chunks: ServerReply["chunks"]) => (n: number): ServerReply => ({ chunks: [chunks, [callAnswer("read", '{"path":"README.md"}', "call_10")], [textAnswer(["好了。"])]][n] });
    const whole = await sameUnderSplits(utf8(broken), (chunks) => runAgainst(script(chunks)), 15);
    expect(whole.code).toBe(EXIT.answered);
    expect(whole.stdout).toBe("我看看🙂。\n好了。\n");
    expect(whole.bodies).toHaveLength(3);
    const { assistant, tool } = tail(whole, 1);
    expect(assistant).toEqual({ role: "assistant", content: "我看看🙂。", tool_calls: [{ id: "call_9", type: "function", function: { name: "read", arguments: "{}" } }] });
    expect(tool.role === "tool" && tool.tool_call_id).toBe("call_9");
    expect(tool.content).toMatch(/^error: invalid arguments for tool "read": not valid JSON \(.+\); received "\{\\"path\\": \\"src\/"; call the tool again with a JSON object of strings$/);
    expect(tail(whole, 2).tool.content).toBe("# demo\n一个示例项目。TODO: 写文档\n");
    expect(whole.stderr).toContain("  → read {}");
    expect(whole.stderr.find((line) => line.startsWith("  ← "))).toMatch(/^ {2}← error: invalid arguments for tool "read": not valid JSON/);
    argumentsAllJson(whole);
  });

  it.each<[string, string, string | undefined, RegExp | string]>([
    ["不是对象", '["README.md"]', "tool_calls", `error: invalid arguments for tool "read": expected a JSON object of strings; received "[\\"README.md\\"]"; ${RETRY}`],
    ["值是嵌套对象", '{"path": {"x": 1}}', "tool_calls", `error: invalid arguments for tool "read": expected a JSON object of strings; received "{\\"path\\": {\\"x\\": 1}}"; ${RETRY}`],
    ["被长度上限截断", '{"path": "sr', "length", /not valid JSON \(.+\); received "\{\\"path\\": \\"sr" — the answer hit the length limit, so they were probably cut off; call the tool/],
    ["很长的坏参数：收到的只引前 120 个字符", `{"path": "${"很长".repeat(200)}`, "tool_calls", new RegExp(`received "\\{\\\\"path\\\\": \\\\"${"很长".repeat(55)}"…; ${RETRY}$`)],
  ])("%s", async (_name, args, finish, expected) => {
    const answer = [event(toolChunk(0, { id: "call_9", name: "read", arguments: args })), event(finishChunk(finish ?? "tool_calls")), DONE].join("");
    const run = await runAgainst((n) => ({ chunks: [n === 0 ? answer : textAnswer(["好"])] }));
    expect(run.code).toBe(EXIT.answered);
    const { tool } = tail(run, 1);
    if (typeof expected === "string") expect(tool.content).toBe(expected);
    else expect(tool.content).toMatch(expected);
    argumentsAllJson(run);
  });

  it("一直发坏参数的模型：每次都拿到 error 结果，直到 MINI_PI_MAX_TURNS 的上限，以问满次数的退出码结束", async () => {
    const run = await runAgainst(() => ({ chunks: [callAnswer("read", "{oops", "call_0")] }), { [ENV.maxTurns]: "3" });
    expect(run.bodies).toHaveLength(3);
    expect(run.code).toBe(EXIT.maxTurns);
    expect(run.stderr.filter((line) => line.startsWith("  ← error: invalid arguments"))).toHaveLength(3);
    argumentsAllJson(run);
  });
});

describe("问满次数：没有回答时有自己的非零退出码，stderr 说没有回答、怎么放宽上限", () => {
  const LOOKING = callAnswer("ls", '{"path":"."}', "call_0", "再看看🙂。");

  it("一直要工具的模型：问满 MINI_PI_MAX_TURNS 次就停，退出码 3，stdout 只有它说过的话；字节任意切开结果一样（fast-check）", async () => {
    const whole = await sameUnderSplits(utf8(LOOKING), (chunks) => runAgainst(() => ({ chunks }), { [ENV.maxTurns]: "3" }), 10);
    expect(whole.code).toBe(EXIT.maxTurns);
    expect(whole.bodies).toHaveLength(3);
    expect(whole.stdout).toBe("再看看🙂。\n".repeat(3));
    expect(whole.stderr.at(-1)).toBe(maxTurnsMessage(3));
    expect(maxTurnsMessage(3)).toBe("没有回答：模型连着要了 3 次工具还没说完，到了 MINI_PI_MAX_TURNS 的上限（3）。想让它多查几次，就调大它，如 MINI_PI_MAX_TURNS=6");
  });

  it("不设就是课里的 DEFAULT_MAX_TURNS；放宽上限真的管用：要 3 次工具的模型，上限 3 答不出、上限 4 答得出", async () => {
    const always = await runAgainst(() => ({ chunks: [LOOKING] }));
    expect(always.bodies).toHaveLength(DEFAULT_MAX_TURNS);
    expect(always.code).toBe(EXIT.maxTurns);
    const needsThree = (n: number): ServerReply => ({ chunks: [n < 3 ? LOOKING : textAnswer(["看完了。"])] });
    expect((await runAgainst(needsThree, { [ENV.maxTurns]: "3" })).code).toBe(EXIT.maxTurns);
    const raised = await runAgainst(needsThree, { [ENV.maxTurns]: "4" });
    expect(raised.code).toBe(EXIT.answered);
    expect(raised.stdout.endsWith("看完了。\n")).toBe(true);
  });

  it("模型的回答恰好就是 max turns reached 这几个字：那是回答，退出码 0", async () => {
    const run = await runAgainst(() => ({ chunks: [textAnswer(["max turns reached"])] }));
    expect(run.code).toBe(EXIT.answered);
    expect(run.stdout).toBe("max turns reached\n");
  });

  it("退出码各不相同；MINI_PI_MAX_TURNS 要是正整数", () => {
    expect(new Set(Object.values(EXIT)).size).toBe(Object.keys(EXIT).length);
    expect(readLiveConfig({ [ENV.baseUrl]: "http://127.0.0.1:1/v1", [ENV.model]: "m", [ENV.maxTurns]: "0" })).toEqual({
      ok: false,
      problems: [`${ENV.maxTurns} 要是正整数（次），现在是 "0"`],
    });
  });
});
