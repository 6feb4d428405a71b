// 真实模型模式（live/）的测试之一：完整的一轮。工作目录工具和它的围栏、走完整 s12 链的两轮对话、runLive 的设置和退出码，
// 以及问题 15 的第 1、2、3、4、6 条：AGENTS.md 守同一道围栏、密钥先打码再截短、思考型模型、坏的工具参数、问满次数。
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { ENV, readLiveConfig } from "../../live/config.ts";
import { EXIT, createLiveAgent, maxTurnsMessage, runLive } from "../../live/main.ts";
import { type ChatMessage, type ChatToolCall, toChatMessages } from "../../live/chat-request.ts";
import { ERROR_TEXT_CHARS, EXCERPT_CHARS, excerpt, serverErrorText } from "../../live/quote.ts";
import { MIN_FRAGMENT, SecretMask, maskSecret, maskThenShorten } from "../../live/redact.ts";
import { DONE, type ServerReply, event, finishChunk, reasoningChunk, textAnswer, textChunk, toolChunk } from "./replay-server.ts";
import { createWorkspaceTools } from "../../live/tools.ts";
import { DEFAULT_MAX_TURNS, ToolRegistry, runOneTurn } from "../../s12_packages/code.ts";
import { KEY, type LiveRun, TOOL_ANSWER, callAnswer, liveIO, runAgainst, sameUnderSplits, useWorkspace, utf8, withServer, workspace } from "./support.ts";

useWorkspace();

describe("工作目录工具：只读，出不了工作目录，每次拒绝都是一条 error: 结果", () => {
  const LIMITS = { maxFileBytes: 1024, maxEntries: 100, maxMatches: 3, maxFilesSearched: 100 };
  const registry = (): ToolRegistry => {
    const r = new ToolRegistry();
    for (const tool of createWorkspaceTools(workspace.work, LIMITS)) r.register(tool);
    return r;
  };
  const run = (name: string, input: Record<string, string>): string => registry().run({ id: "t", name, input });

  it.each<[string, string, Record<string, string>, string]>([
    ["..", "read", { path: "../outside/secret.txt" }, 'error: "../outside/secret.txt" is outside the working directory'],
    ["藏在中间的 ..", "ls", { path: "src/../../outside" }, 'error: "src/../../outside" is outside the working directory'],
    ["绝对路径", "read", { path: "/etc/passwd" }, 'error: absolute paths are not allowed ("/etc/passwd"); use a path relative to the working directory'],
    ["指到目录外的文件链接", "read", { path: "link-out.txt" }, 'error: "link-out.txt" is a symlink that points outside the working directory'],
    ["指到目录外的目录链接", "ls", { path: "link-out-dir" }, 'error: "link-out-dir" is a symlink that points outside the working directory'],
    ["经过目录外链接的路径", "read", { path: "link-out-dir/secret.txt" }, 'error: "link-out-dir/secret.txt" is a symlink that points outside the working directory'],
    ["grep 从目录外链接开始", "grep", { pattern: "TODO", path: "link-out-dir" }, 'error: "link-out-dir" is a symlink that points outside the working directory'],
    ["隐藏文件", "read", { path: ".env" }, 'error: ".env" is hidden (.env); hidden files and folders are off limits'],
    ["隐藏目录里的文件", "read", { path: ".git/config" }, 'error: ".git/config" is hidden (.git); hidden files and folders are off limits'],
    ["指向隐藏文件的链接", "read", { path: "env-link" }, 'error: "env-link" is a symlink to a hidden file or folder'],
    ["超过大小上限", "read", { path: "big.txt" }, 'error: "big.txt" is 2.0 KB, over the 1.0 KB limit'],
    ["二进制（有 NUL）", "read", { path: "logo.png" }, 'error: "logo.png" looks like a binary file; only text files can be read'],
    ["二进制（不是 UTF-8）", "read", { path: "latin1.txt" }, 'error: "latin1.txt" looks like a binary file; only text files can be read'],
    ["不存在", "read", { path: "nope.md" }, 'error: no such file or folder: "nope.md"'],
    ["坏链接", "read", { path: "broken-link" }, 'error: "broken-link" is a broken or unreadable link'],
    ["read 一个目录", "read", { path: "src" }, 'error: "src" is a folder; use ls to list it'],
    ["ls 一个文件", "ls", { path: "README.md" }, 'error: "README.md" is a file; use read to see it'],
    ["grep 空模式", "grep", { pattern: "", path: "." }, "error: pattern is empty"],
    ["参数不全（s12 的 zod 校验照旧）", "grep", { pattern: "x" }, 'error: invalid arguments for tool "grep": argument "path" is missing'],
  ])("%s", (_name, tool, input, expected) => {
    expect(run(tool, input)).toBe(expected);
  });

  it("read：读文本文件，链接指向目录里面的照读，空文件说明是空的", () => {
    expect(run("read", { path: "README.md" })).toBe("# demo\n一个示例项目。TODO: 写文档\n");
    expect(run("read", { path: "./src/../link-in.ts" })).toBe("export const x = 1; // todo later\n// TODO: more\n");
    expect(run("read", { path: "src/empty.ts" })).toBe("(empty file)");
  });

  it("ls：目录带 /，隐藏项不列只计数，指向禁区的链接标出来", () => {
    expect(run("ls", { path: "." })).toBe(
      [
        "README.md",
        "big.txt",
        "broken-link (link to somewhere off limits)",
        "env-link (link to somewhere off limits)",
        "latin1.txt",
        "link-in.ts",
        "link-out-dir (link to somewhere off limits)",
        "link-out.txt (link to somewhere off limits)",
        "logo.png",
        "node_modules/",
        "src/",
        "(2 hidden entries not shown)",
      ].join("\n"),
    );
    expect(run("ls", { path: "src/" })).toBe("empty.ts\nmain.ts");
  });

  it("grep：不进隐藏目录、node_modules、链接，跳过二进制和超大文件；全小写时不分大小写；到上限就停", () => {
    expect(run("grep", { pattern: "TODO", path: "." })).toBe(
      ["README.md:2: 一个示例项目。TODO: 写文档", "src/main.ts:2: // TODO: more", "(skipped 3 binary or oversized files)"].join("\n"),
    );
    expect(run("grep", { pattern: "todo", path: "src" })).toBe("src/main.ts:1: export const x = 1; // todo later\nsrc/main.ts:2: // TODO: more");
    expect(run("grep", { pattern: "e", path: "." }).split("\n")).toEqual([
      "README.md:1: # demo",
      "src/main.ts:1: export const x = 1; // todo later",
      "src/main.ts:2: // TODO: more",
      "(stopped at 3 matches)",
      "(skipped 3 binary or oversized files)",
    ]);
    expect(run("grep", { pattern: "nothing-like-this", path: "src/main.ts" })).toBe('no matches for "nothing-like-this" in src/main.ts');
  });
});

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

describe("npm run live：设置从环境变量来，缺了就说清楚并以非零退出", () => {
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

describe("1. AGENTS.md 和工具守同一道围栏：解开链接后在工作目录外的，不加载、stderr 说一句，绝不发给模型服务器", () => {
  const CANARY = `CANARY-${Math.random().toString(36).slice(2)}-金丝雀`;
  let fence: string;
  /** 每种情形一个项目目录：名字 → 目录。 */
  const projects: Record<string, string> = {};
  beforeAll(() => {
    fence = join(workspace.base, "fence");
    const outside = join(fence, "outside");
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, "canary.txt"), `# 别读我\n${CANARY}\n`);
    const project = (name: string, setup: (dir: string) => void): void => {
      const dir = join(fence, name);
      mkdirSync(dir);
      writeFileSync(join(dir, "README.md"), "# 项目\n");
      setup(dir);
      projects[name] = dir;
    };
    project("file-link", (dir) => symlinkSync("../outside/canary.txt", join(dir, "AGENTS.md")));
    project("absolute-link", (dir) => symlinkSync(join(outside, "canary.txt"), join(dir, "AGENTS.md")));
    project("dir-link", (dir) => {
      symlinkSync("../outside", join(dir, "docs")); // 看上去在里面的目录，其实是链到外面
      symlinkSync("docs/canary.txt", join(dir, "AGENTS.md"));
    });
    project("chained-link", (dir) => {
      symlinkSync("../outside/canary.txt", join(dir, "notes.md"));
      symlinkSync("notes.md", join(dir, "AGENTS.md")); // 链到里面的一个链接，它再链到外面
    });
    project("hidden-link", (dir) => {
      mkdirSync(join(dir, ".private"));
      writeFileSync(join(dir, ".private", "notes.md"), CANARY);
      symlinkSync(".private/notes.md", join(dir, "AGENTS.md"));
    });
    project("inside-link", (dir) => {
      mkdirSync(join(dir, "notes"));
      writeFileSync(join(dir, "notes", "agents.md"), "这个项目用 pnpm。");
      symlinkSync("notes/agents.md", join(dir, "AGENTS.md"));
    });
    project("real", (dir) => writeFileSync(join(dir, "AGENTS.md"), "这个项目用 pnpm。"));
    project("control", (dir) => writeFileSync(join(dir, "AGENTS.md"), CANARY));
    symlinkSync(projects.real, join(fence, "real-via-link")); // 工作目录本身经过一个链接
    projects["real-via-link"] = join(fence, "real-via-link");
  });

  /** 模型先去读 AGENTS.md（看围栏是否也挡住了工具），再回答。 */
  const script = (n: number): ServerReply => ({ chunks: [n === 0 ? callAnswer("read", '{"path":"AGENTS.md"}', "call_1", "先看看说明🙂。") : textAnswer(["好的。"])] });
  const trusted = { [ENV.trust]: "trusted" };

  it.each<[string, string]>([
    ["file-link", '"AGENTS.md" is a symlink that points outside the working directory'],
    ["absolute-link", '"AGENTS.md" is a symlink that points outside the working directory'],
    ["dir-link", '"AGENTS.md" is a symlink that points outside the working directory'],
    ["chained-link", '"AGENTS.md" is a symlink that points outside the working directory'],
    ["hidden-link", '"AGENTS.md" is a symlink to a hidden file or folder'],
  ])("%s：不加载，stderr 一行说明原因；金丝雀不在任何请求正文里，也不在输出里", async (name, reason) => {
    const run = await runAgainst(script, trusted, { cwd: projects[name] });
    expect(run.code).toBe(EXIT.answered);
    expect(run.stderr.filter((line) => line.startsWith("AGENTS.md"))).toEqual([`AGENTS.md 没有加载：${reason}（它得是工作目录里的文本文件）`]);
    expect(run.bodies).toHaveLength(2);
    for (const body of run.bodies) expect(body).not.toContain(CANARY);
    expect(run.bodies[0]).not.toContain("# 项目说明"); // 系统提示里没有项目说明这一节
    expect(JSON.parse(run.bodies[1]).messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_1", content: `error: ${reason}` });
    expect([run.stdout, ...run.stderr].join("\n")).not.toContain(CANARY);
  });

  it("不信任时也一样：围栏先说不能读，不再提信任", async () => {
    const run = await runAgainst(script, {}, { cwd: projects["dir-link"] });
    expect(run.stderr.filter((line) => line.startsWith("AGENTS.md"))).toEqual([
      'AGENTS.md 没有加载："AGENTS.md" is a symlink that points outside the working directory（它得是工作目录里的文本文件）',
    ]);
    for (const body of run.bodies) expect(body).not.toContain(CANARY);
  });

  it.each(["inside-link", "real", "real-via-link"])("%s：在工作目录里的照常加载（围栏不误伤：指向里面的链接、工作目录本身是链接）", async (name) => {
    const run = await runAgainst(script, trusted, { cwd: projects[name] });
    expect(run.code).toBe(EXIT.answered);
    expect(run.stderr.filter((line) => line.startsWith("AGENTS.md"))).toEqual(["AGENTS.md 已加载（MINI_PI_TRUST=trusted）"]);
    expect(JSON.parse(run.bodies[0]).messages[0].content).toContain("## AGENTS.md\n这个项目用 pnpm。");
  });

  it("检查本身会失败：金丝雀真在工作目录里时，同样的检查在请求正文里找到了它", async () => {
    const run = await runAgainst(script, trusted, { cwd: projects.control });
    expect(run.stderr).toContain("AGENTS.md 已加载（MINI_PI_TRUST=trusted）");
    expect(run.bodies.filter((body) => body.includes(CANARY))).toHaveLength(2);
  });

  it("dir-link 的整段对话，回答的字节任意切开送来，结果一样（fast-check）", async () => {
    const bytes = utf8(script(0).chunks[0] as string);
    const whole = await sameUnderSplits(bytes, (chunks) => runAgainst((n) => (n === 0 ? { chunks } : script(n)), trusted, { cwd: projects["dir-link"] }), 10);
    expect(whole.code).toBe(EXIT.answered);
    for (const body of whole.bodies) expect(body).not.toContain(CANARY);
  });
});

describe("2. 密钥先打码再截短：放在正文的任何位置、跨在任何截断处，输出里都找不出它的任何一截（≥ 6 个字符）", () => {
  /** 输出里有没有密钥的某一截（长度 k）；有就交出找到的那一截。任何更长的一截都含有长度 k 的一截，查 k 就够了。 */
  const leak = (output: string, key: string, k = MIN_FRAGMENT): string | undefined => {
    for (let i = 0; i + k <= key.length; i++) if (output.includes(key.slice(i, i + k))) return key.slice(i, i + k);
    return undefined;
  };
  /** 垫在密钥前后的文字：字母表和密钥（sk- 加字母数字）不相交，所以找到的任何一截都只能来自密钥本身。 */
  const PAD = [..."<>/=:;,.!?·中文🙂【】 \n"];
  const padArb = (maxLength: number): fc.Arbitrary<string> => fc.array(fc.constantFrom(...PAD), { maxLength }).map((a) => a.join(""));
  const ALNUM = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"];
  const keyArb = fc.string({ unit: fc.constantFrom(...ALNUM), minLength: 16, maxLength: 48 }).map((s) => `sk-${s}`);
  const pad = (n: number): string => "x".repeat(n); // 'x' 不在 KEY 里
  /** 每条会截短的路：从正文到给人看的那句话。 */
  const paths: Array<[string, number, (body: string, key: string) => string]> = [
    ["服务器错误正文（纯文字）", ERROR_TEXT_CHARS, (body, key) => serverErrorText(body, key)],
    ["服务器错误正文（JSON 的 error.message）", ERROR_TEXT_CHARS, (body, key) => serverErrorText(JSON.stringify({ error: { message: body } }), key)],
    ["坏数据的引用", EXCERPT_CHARS, (body, key) => excerpt(body, key)],
    ["工具进度那一行", 160, (body, key) => maskThenShorten(body, key, 160)],
  ];

  it("检查本身会失败：旧做法（先截短再整串替换）让跨在截断处的密钥漏出前半截", () => {
    const body = `${pad(ERROR_TEXT_CHARS - 10)}${KEY}${pad(50)}`;
    const old = body.slice(0, ERROR_TEXT_CHARS).split(KEY).join("***");
    expect(leak(old, KEY)).toBe(KEY.slice(0, MIN_FRAGMENT));
    expect(leak(serverErrorText(body, KEY), KEY)).toBeUndefined();
  });

  it.each(paths)("%s：密钥放在长正文的每一个位置（含跨在截断处的每一种跨法）", (_name, limit, path) => {
    for (let at = 0; at <= limit + 40; at++) {
      const body = `${pad(at)}${KEY}${pad(limit + 40 - at)}`;
      const out = path(body, KEY);
      expect(leak(out, KEY), `key at ${at}: ${out}`).toBeUndefined();
      if (at + KEY.length <= limit - 10) expect(out, `key at ${at}`).toContain("***"); // 整串在截断之前：看得到打码的痕迹
    }
  });

  it.each(paths)("%s：服务器那边已经截断的密钥（开头一截），够 6 个字符就打码", (_name, limit, path) => {
    for (let length = 1; length <= KEY.length; length++) {
      for (const at of [0, 37, limit - length, limit - 3]) {
        const fragment = KEY.slice(0, length);
        const out = path(`${pad(Math.max(0, at))}${fragment}…${pad(30)}`, KEY);
        expect(leak(out, KEY), `fragment ${length} at ${at}: ${out}`).toBeUndefined();
        if (length < MIN_FRAGMENT && at + length <= limit) expect(out).toContain(fragment); // 短于 6 的不打：它只是公开的 sk- 前缀那一类
      }
    }
  });

  it("任意密钥、任意垫字、任意位置、完整或截断的密钥，每条路都一截不漏（fast-check）", () => {
    fc.assert(
      fc.property(keyArb, padArb(400), padArb(400), fc.nat(), fc.boolean(), (key, before, after, cut, whole) => {
        const secret = whole ? key : key.slice(0, MIN_FRAGMENT + (cut % (key.length - MIN_FRAGMENT)));
        for (const [name, , path] of paths) expect(leak(path(`${before}${secret}${after}`, key), key), name).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it("流式打码：任意切法下，逐段打码连起来都等于整段打码（fast-check）", () => {
    const piece = fc.oneof(fc.constant(KEY), fc.nat(KEY.length).map((n) => KEY.slice(0, n)), fc.string({ maxLength: 8 }), fc.constantFrom(..."sk-tT🙂"));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 8 }), (pieces, cuts) => {
        const text = pieces.join("");
        const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        const mask = new SecretMask(KEY);
        let out = "";
        let start = 0;
        for (const point of [...points, text.length]) {
          out += mask.push(text.slice(start, point));
          start = point;
        }
        out += mask.end();
        expect(out).toBe(maskSecret(text, KEY));
        expect(leak(out, KEY)).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it("回答里带着密钥，被切在两段文字之间、字节在任意处切开：stdout 上是 ***，一截也不漏（回放，fast-check）", async () => {
    const bytes = utf8(textAnswer(["密钥是 sk-te", "st-SECRET", "-4f9c。🙂 前缀 sk- 不算"]));
    const whole = await sameUnderSplits(bytes, (chunks) => runAgainst(() => ({ chunks }), { [ENV.apiKey]: KEY }));
    expect(whole.code).toBe(EXIT.answered);
    expect(whole.stdout).toBe("密钥是 ***。🙂 前缀 sk- 不算\n");
    expect(leak([whole.stdout, ...whole.stderr].join("\n"), KEY)).toBeUndefined();
  });

  it("HTML 502 页回显了 Authorization 头，密钥跨在 300 字截断处的每一种跨法：stderr 的错误一截也不漏（回放）", async () => {
    let body = "";
    await withServer(
      () => ({ status: 502, headers: { "content-type": "text/html" }, chunks: [body] }),
      async (server) => {
        const head = "<html><body><h1>502 Bad Gateway</h1><pre>Authorization: Bearer ";
        for (let at = ERROR_TEXT_CHARS - KEY.length - 2; at <= ERROR_TEXT_CHARS + 1; at++) {
          body = `${head.padStart(at, "x")}${KEY}</pre></body></html>`;
          const io = liveIO({ [ENV.baseUrl]: server.baseUrl, [ENV.model]: "m", [ENV.apiKey]: KEY });
          expect(await runLive(["hi"], io)).toBe(EXIT.failed);
          const output = [io.stdout_(), ...io.err].join("\n");
          expect(io.err.at(-1)).toMatch(/^error: HTTP 502 Bad Gateway: x*<html>/);
          expect(leak(output, KEY), `key at ${at}: ${output}`).toBeUndefined();
        }
      },
    );
  });

  it("模型把密钥塞进工具参数：→ 那一行和 ← 那一行（截到 160 字）都一截不漏", async () => {
    for (const at of [100, 125, 140, 150, 160]) {
      const path = `${pad(at)}${KEY}`;
      const run = await runAgainst((n) => ({ chunks: [n === 0 ? callAnswer("read", JSON.stringify({ path })) : textAnswer(["好"])] }), { [ENV.apiKey]: KEY });
      expect(run.stderr.some((line) => line.startsWith("  ← error: no such file or folder"))).toBe(true);
      expect(leak(run.stderr.join("\n"), KEY), `key at ${at}`).toBeUndefined();
    }
  });
});

describe("3. 思考型模型：每段回答的思考过程跟着它走，按服务器的字段名带回去；只想不答要说出来", () => {
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

  it("toChatMessages：思考过程只挂在发出调用的那条助手消息上，两个字段都出现过就都带回", () => {
    const call: ChatToolCall = { id: "c1", type: "function", function: { name: "ls", arguments: '{"path":"."}' } };
    const reasoning = { reasoning_content: "想 A", reasoning: "想 B" };
    const messages = toChatMessages(
      {
        systemPrompt: "",
        tools: [],
        messages: [
          { role: "user", content: "q" },
          { role: "assistant", content: "看一下" },
          { role: "toolResult", toolCallId: "c1", content: "a.ts" },
          { role: "assistant", content: "好了" },
        ],
      },
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

describe("4. 工具参数不成形：回一条 error 结果（错在哪、收到的是什么，截短），模型改了再调，这一轮照常往下走", () => {
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

describe("6. 问满次数没有回答：自己的非零退出码，stderr 说没有回答、怎么放宽上限", () => {
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
