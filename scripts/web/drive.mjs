// Drives headless Chromium through the web example (scripts/web.sh --measure):
// presses start, lets the level play, reads the page's figures back, and
// prints them as a table. `node drive.mjs URL OUT_DIR [SECONDS]`.
import { chromium } from "playwright-core";
import { writeFileSync } from "node:fs";

const [url, out, secondsArg] = process.argv.slice(2);
const seconds = Number(secondsArg ?? 60);
const sweepSeconds = Math.min(seconds, 20);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--autoplay-policy=no-user-gesture-required",
  ],
});

async function run(name, query, secondsToPlay, upload = false) {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await page.goto(`${url}?${query}`);
  await page.waitForFunction(() => window.poolReady === true, null, { timeout: 120_000 });
  await page.click("#start");
  await page.waitForTimeout(secondsToPlay * 1000);
  const stats = await page.evaluate(() => window.poolStats());
  if (upload) stats.upload = await page.evaluate((n) => window.poolUpload(n), name);
  await page.close();
  stats.name = name;
  stats.errors = errors;
  console.error(`${name}: ${JSON.stringify(stats)}`);
  if (errors.length > 0) throw new Error(`${name}: ${errors.join("; ")}`);
  return stats;
}

const results = [];
const web = (name, query, time, upload) => run(name, `mode=web&${query}`, time, upload);
const bevy = (name, query, time) => run(name, `mode=bevy&${query}`, time);
const kira = (name, query, time) => run(name, `mode=kira&${query}`, time);

results.push(await web("web", "capture=40000&record=20&upload=web", seconds, true));
results.push(await web("web-stall", "stall=30", seconds));
// The smallest buffering that rides out the stalls, in steps of 10 ms.
let smallest = null;
for (const ms of [90, 80, 70, 60, 50, 40, 30, 20, 10]) {
  const stats = await web(`web-stall-${ms}ms`, `stall=30&buffering=${ms}`, sweepSeconds);
  results.push(stats);
  if (stats.underruns > 0) break;
  smallest = ms;
}
if (smallest !== null) {
  results.push(await web(`web-stall-${smallest}ms-full`, `stall=30&buffering=${smallest}`, seconds));
}
results.push(await bevy("bevy", "", seconds));
results.push(await bevy("bevy-stall", "stall=30", seconds));
// The Bevy app's smallest: from the plain level's up, in steps of 10 ms.
let smallestBevy = null;
for (let ms = smallest ?? 40; ms < 100; ms += 10) {
  const stats = await bevy(`bevy-stall-${ms}ms`, `stall=30&buffering=${ms}`, sweepSeconds);
  results.push(stats);
  if (stats.underruns === 0) {
    smallestBevy = ms;
    break;
  }
}
if (smallestBevy !== null) {
  results.push(await bevy(`bevy-stall-${smallestBevy}ms-full`, `stall=30&buffering=${smallestBevy}`, seconds));
}
results.push(await kira("kira", "", seconds));
results.push(await kira("kira-stall", "stall=30", seconds));
// kira's output at smaller buffers (latencies like those above): the smallest
// with no late buffer under the same stalls.
let smallestKira = null;
for (const frames of [1024, 512, 256]) {
  const stats = await kira(`kira-stall-${frames}`, `stall=30&buffer=${frames}`, sweepSeconds);
  results.push(stats);
  if (stats.lateBuffers > 0) break;
  smallestKira = frames;
}
await browser.close();
writeFileSync(`${out}/figures.json`, JSON.stringify(results, null, 1));

const ms = (x) => (x === null || x === undefined ? "-" : `${x.toFixed(0)} ms`);
console.log("| run | buffering | stall | s | game frames | underruns (gaps) | frames rendered ahead of the clock | audio clock / wall | peak dBFS | allocations per frame after 10 s | first sound |");
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const r of results) {
  const web = r.mode !== "kira";
  const buffering = web
    ? `${((r.bufferingFrames / r.sampleRate) * 1000).toFixed(0)} ms`
    : `2 x ${r.bufferFrames} frames`;
  const gaps = web ? `${r.underruns} (${r.missingFrames} frames)` : `${r.lateBuffers} late of ${r.buffers}`;
  const ahead = web ? r.writtenFrames - r.consumedFrames : r.aheadFrames;
  const clock = r.contextFrames / r.sampleRate / r.seconds;
  console.log(
    `| ${r.name} | ${buffering} | ${r.stallMs} ms | ${r.seconds.toFixed(1)} | ${r.gameFrames} | ${gaps} | ${ahead} | ${clock.toFixed(3)} | ${r.peakDb.toFixed(2)} | ${r.allocationsPerFrame === null ? "-" : r.allocationsPerFrame.toFixed(2)} | ${ms(r.firstSoundMs)} |`,
  );
}
console.log(`\nsmallest buffering with no underrun under a 30 ms stall a second: ${smallest === null ? "none tried" : `${smallest} ms`}`);
console.log(`the Bevy app's: ${smallestBevy === null ? "over 90 ms" : `${smallestBevy} ms`}`);
console.log(`kira's: ${smallestKira === null ? "not even 1,024 frames" : `2 x ${smallestKira} frames`}`);
