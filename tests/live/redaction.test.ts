// 真实模型模式（live/）的测试：密钥先打码再截短。每条会截短的路（服务器的错误正文、坏数据的引用、工具进度那一行）、
// 流式打码、回放出来的整段对话，密钥放在哪里、跨在哪个截断处，输出里都找不出它的任何一截。
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ENV } from "../../live/config.ts";
import { EXIT, runLive } from "../../live/main.ts";
import { ERROR_TEXT_CHARS, EXCERPT_CHARS, excerpt, serverErrorText } from "../../live/quote.ts";
import { MIN_FRAGMENT, SecretMask, maskSecret, maskThenShorten } from "../../live/redact.ts";
import { textAnswer } from "./replay-server.ts";
import { KEY, callAnswer, liveIO, runAgainst, sameUnderSplits, useWorkspace, utf8, withServer } from "./support.ts";

useWorkspace();

describe("密钥打码：先打码再截短，密钥放在正文的任何位置、跨在任何截断处，输出里都找不出它的任何一截（≥ 6 个字符）", () => {
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
