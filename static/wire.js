// The players' phones' wire (issue 32): the browser's WebRTC, compression and camera,
// wrapped for the Python side (web/phones.py on the tablet, web/views/join.py on a
// phone). No signalling server, no ICE server: the offer travels in a link's fragment
// (a QR code the phone's camera opens), the answer comes back as a code the tablet
// scans or pastes (PLATFORM.md, WebRTC). This file keeps no game state and decides
// nothing: it carries text, and every message it hands over is read as hostile input
// by Python (web/seatmsg.py).

/** The longest message handed to Python (characters): anything longer is reported as
 * "too long" without its text (web/seatmsg.py caps what a phone may send far lower). */
const MAX_HANDED = 1 << 20;
/** The longest text unpacked (characters): a squeezed description is about 140 (web/sdp.py). */
const MAX_UNPACKED = 16384;
/** How long ICE gathering may take before the description is used as it is (ms). */
const GATHER_MS = 4000;
/** The vendored QR reader (zxing-wasm, builder/build.py), loaded only where the browser has
 * no BarcodeDetector; its WebAssembly comes from the same folder (never its default CDN). */
const ZXING_URL = "./vendor/zxing/zxing-reader.js";
const ZXING_DIR = new URL("./vendor/zxing/", location.href).href;

const peers = new Map(); // id → {pc, channel}
let nextId = 1;
let listener = null; // (id, kind, text) → void, from Python

function emit(id, kind, text = "") {
  if (listener) listener(id, kind, text);
}

function toBase64url(bytes) {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("not base64url");
  const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Text (a squeezed SDP, web/sdp.py) → deflate-raw → base64url: what a link's fragment or a
 * phone's code carries. */
async function pack(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return toBase64url(new Uint8Array(await new Response(stream).arrayBuffer()));
}

/** The reverse of pack, refusing what is not one (bad text, too long once inflated). */
async function unpack(code) {
  const stream = new Blob([fromBase64url(code)]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
    if (text.length > MAX_UNPACKED) { reader.cancel(); throw new Error("too long"); }
  }
  return text;
}

function gathered(pc) {
  return new Promise((resolve) => {
    if (pc.iceGatheringState === "complete") return resolve();
    const done = () => { if (pc.iceGatheringState === "complete") resolve(); };
    pc.addEventListener("icegatheringstatechange", done);
    setTimeout(resolve, GATHER_MS);
  });
}

function watchChannel(id, channel) {
  const peer = peers.get(id);
  if (peer) peer.channel = channel;
  channel.onopen = () => emit(id, "open");
  channel.onclose = () => emit(id, "close");
  channel.onmessage = (event) => {
    if (typeof event.data !== "string") emit(id, "bad", "binary");
    else if (event.data.length > MAX_HANDED) emit(id, "bad", "long:" + event.data.length);
    else emit(id, "message", event.data);
  };
}

function newPeer() {
  const pc = new RTCPeerConnection({ iceServers: [] }); // host and mDNS candidates only
  const id = nextId++;
  peers.set(id, { pc, channel: null });
  pc.addEventListener("connectionstatechange", () => emit(id, "state", pc.connectionState));
  return [id, pc];
}

let scanning = null; // {stream, stop}

const ctWire = {
  /** Whether this browser can pair at all (WebRTC data channels and deflate-raw streams). */
  available() {
    return typeof RTCPeerConnection === "function" && typeof CompressionStream === "function"
      && typeof DecompressionStream === "function";
  },
  /** Python's one listener: (peer id, "open" | "close" | "state" | "message" | "bad", text). */
  listen(fn) { listener = fn; },
  pack,
  unpack,
  /** The tablet: a new peer with a data channel; resolves to [id, its offer's SDP]. */
  async offer() {
    const [id, pc] = newPeer();
    watchChannel(id, pc.createDataChannel("seat", { ordered: true }));
    await pc.setLocalDescription(await pc.createOffer());
    await gathered(pc);
    return [id, pc.localDescription.sdp];
  },
  /** The tablet: the phone's answer (SDP) for peer ``id``. */
  async accept(id, sdp) {
    const peer = peers.get(id);
    if (!peer) throw new Error("no such invitation");
    await peer.pc.setRemoteDescription({ type: "answer", sdp });
  },
  /** The phone: the tablet's offer (SDP); resolves to [id, the answer's SDP]. */
  async answer(sdp) {
    const [id, pc] = newPeer();
    pc.addEventListener("datachannel", (event) => watchChannel(id, event.channel));
    await pc.setRemoteDescription({ type: "offer", sdp });
    await pc.setLocalDescription(await pc.createAnswer());
    await gathered(pc);
    return [id, pc.localDescription.sdp];
  },
  /** Send ``text`` to peer ``id``; whether its channel was open. */
  send(id, text) {
    const peer = peers.get(id);
    if (!peer || !peer.channel || peer.channel.readyState !== "open") return false;
    peer.channel.send(text);
    return true;
  },
  close(id) {
    const peer = peers.get(id);
    if (!peer) return;
    peers.delete(id);
    try { if (peer.channel) peer.channel.close(); } catch { /* already closed */ }
    try { peer.pc.close(); } catch { /* already closed */ }
  },
  /** A secret of ``bytes`` random bytes from the browser's cryptographic generator, as hex. */
  secret(bytes = 16) {
    return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
  },
  /** What the camera reader will use: "native" (BarcodeDetector), "zxing" or "" (no camera). */
  async reader() {
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) return "";
    if ("BarcodeDetector" in window) {
      try {
        const formats = await BarcodeDetector.getSupportedFormats();
        if (formats.includes("qr_code")) return "native";
      } catch { /* fall through to the vendored decoder */ }
    }
    return "zxing";
  },
  /** The camera's QR reader fetched ahead of a scan ("Players' phones…" opened), where it
   * would be used (no BarcodeDetector) and the browser is online: it is not precached
   * (builder/build.py ZXING_ON_DEMAND), and the service worker keeps it once fetched, so the
   * tablet then scans offline too. Resolves to whether it fetched; never rejects. */
  async prefetchReader() {
    try {
      if (await ctWire.reader() !== "zxing" || !navigator.onLine) return false;
      const bodies = await Promise.all([ZXING_URL, ZXING_DIR + "zxing_reader.wasm"].map(
        (url) => fetch(url).then((r) => (r.ok ? r.arrayBuffer() : Promise.reject(new Error(url))))));
      return bodies.length === 2;
    } catch {
      return false; // offline or refused: the first scan tries again
    }
  },
  /** The camera into ``video`` until a QR code is read: resolves to its text; rejects with
   * the camera's refusal. ``force`` ("zxing") skips BarcodeDetector (tests). */
  async scan(video, force = "") {
    ctWire.stopScan();
    const kind = force || await ctWire.reader();
    if (!kind) throw new Error("no camera");
    // The reader first (it may be missing offline: not precached), so the camera is never
    // turned on for a scan that cannot read.
    const zxing = kind === "zxing" ? await loadZxing() : null;
    const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
    let stopped = false;
    const stop = () => { stopped = true; for (const track of stream.getTracks()) track.stop(); };
    scanning = { stream, stop };
    video.srcObject = stream;
    video.setAttribute("playsinline", "");
    video.muted = true;
    await video.play();
    let detect;
    if (kind === "native") {
      const detector = new BarcodeDetector({ formats: ["qr_code"] });
      detect = async () => { const found = await detector.detect(video); return found.length ? found[0].rawValue : null; };
    } else {
      const canvas = document.createElement("canvas");
      const context = canvas.getContext("2d", { willReadFrequently: true });
      detect = async () => {
        const w = video.videoWidth, h = video.videoHeight;
        if (!w || !h) return null;
        canvas.width = w; canvas.height = h;
        context.drawImage(video, 0, 0, w, h);
        const found = await zxing.readBarcodes(context.getImageData(0, 0, w, h),
          { formats: ["QRCode"], tryHarder: true, maxNumberOfSymbols: 1 });
        return found.length && found[0].isValid ? found[0].text : null;
      };
    }
    for (;;) {
      if (stopped) throw new Error("stopped");
      const text = await detect().catch(() => null);
      if (text) { stop(); scanning = null; return text; }
      await new Promise((resolve) => setTimeout(resolve, 120));
    }
  },
  stopScan() {
    if (scanning) { scanning.stop(); scanning = null; }
  },
};

let zxingLoading = null;
function loadZxing() {
  zxingLoading ||= new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = ZXING_URL;
    script.onload = () => {
      const zxing = window.ZXingWASM;
      zxing.prepareZXingModule({ overrides: { locateFile: (path) => ZXING_DIR + path }, fireImmediately: true })
        .then(() => resolve(zxing), () => { zxingLoading = null; reject(new Error("the QR reader could not start")); });
    };
    script.onerror = () => {
      zxingLoading = null;
      script.remove();
      reject(new Error("the QR reader could not be loaded")); // offline before it was ever fetched
    };
    document.head.appendChild(script);
  });
  return zxingLoading;
}

window.ctWire = ctWire;
