/**
 * Where sounds of one recording fall in another: the independent measure `npm run bench:subtitles`
 * checks the subtitle cues with. Nothing here is used by the product.
 *
 * Both recordings become frames of 10 ms described by their spectrum (log energy in 24 bands from
 * 100 Hz to 8 kHz, each band's mean over the recording removed so loudness and sample rate do not
 * matter), and dynamic time warping finds the cheapest monotone pairing of the frames of one with
 * the frames of the other. A moment of the reference (a cue's first word, spoken on its own) then
 * maps to the frame of the recording it was paired with.
 */

export const FRAME_SECONDS = 0.01;
const WINDOW_SECONDS = 0.025;
const BANDS = 24;
const LOW_HZ = 100;
const HIGH_HZ = 8000;

/** Mono samples in [-1, 1] from a 16-bit PCM WAV file's bytes (channels averaged). */
export function readWav(bytes: Buffer): { samples: Float32Array; sampleRate: number } {
  if (bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE') throw new Error('not a WAV file');
  let channels = 1;
  let sampleRate = 0;
  let bits = 16;
  for (let at = 12; at + 8 <= bytes.length;) {
    const id = bytes.toString('ascii', at, at + 4);
    const declared = bytes.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === 'fmt ') {
      channels = bytes.readUInt16LE(body + 2);
      sampleRate = bytes.readUInt32LE(body + 4);
      bits = bytes.readUInt16LE(body + 14);
    } else if (id === 'data') {
      if (bits !== 16 || sampleRate === 0) throw new Error('only 16-bit PCM WAV files are read');
      // ffmpeg writes 0xFFFFFFFF (unknown) when it streams: the data runs to the end of the file.
      const size = Math.min(declared, bytes.length - body);
      const frames = Math.floor(size / (2 * channels));
      const samples = new Float32Array(frames);
      for (let i = 0; i < frames; i += 1) {
        let sum = 0;
        for (let c = 0; c < channels; c += 1) sum += bytes.readInt16LE(body + 2 * (i * channels + c));
        samples[i] = sum / channels / 32768;
      }
      return { samples, sampleRate };
    }
    at = body + declared + (declared % 2);
  }
  throw new Error('the WAV file has no data');
}

/** In-place radix-2 FFT of (re, im); length a power of two. */
function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i += 1) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j]!, re[i]!];
      [im[i], im[j]] = [im[j]!, im[i]!];
    }
  }
  for (let size = 2; size <= n; size <<= 1) {
    const angle = (-2 * Math.PI) / size;
    const wr = Math.cos(angle);
    const wi = Math.sin(angle);
    for (let start = 0; start < n; start += size) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < size / 2; k += 1) {
        const a = start + k;
        const b = a + size / 2;
        const tr = re[b]! * cr - im[b]! * ci;
        const ti = re[b]! * ci + im[b]! * cr;
        re[b] = re[a]! - tr;
        im[b] = im[a]! - ti;
        re[a] = re[a]! + tr;
        im[a] = im[a]! + ti;
        const next = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = next;
      }
    }
  }
}

const mel = (hz: number) => 2595 * Math.log10(1 + hz / 700);

/** One row of BANDS values per 10 ms frame, plus each frame's energy (for finding speech). */
export function features(samples: Float32Array, sampleRate: number): { rows: Float32Array[]; energy: Float64Array } {
  // Frame f starts at sample round(f * hop): exactly 10 ms apart on average at any rate (220.5 samples at 22 050 Hz).
  const hop = FRAME_SECONDS * sampleRate;
  const window = Math.round(WINDOW_SECONDS * sampleRate);
  let size = 1;
  while (size < window) size <<= 1;
  const hann = Float64Array.from({ length: window }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (window - 1)));
  // Which FFT bins fall in which mel band.
  const edges = Array.from({ length: BANDS + 1 }, (_, i) => {
    const m = mel(LOW_HZ) + ((mel(HIGH_HZ) - mel(LOW_HZ)) * i) / BANDS;
    return (700 * (10 ** (m / 2595) - 1) * size) / sampleRate;
  });
  const count = Math.max(1, Math.floor((samples.length - window) / hop) + 1);
  const startOf = (f: number) => Math.round(f * hop);
  const rows: Float32Array[] = [];
  const energy = new Float64Array(count);
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  for (let f = 0; f < count; f += 1) {
    re.fill(0);
    im.fill(0);
    let power = 0;
    for (let i = 0; i < window; i += 1) {
      const sample = samples[startOf(f) + i] ?? 0;
      power += sample * sample;
      re[i] = sample * hann[i]!;
    }
    energy[f] = power / window;
    fft(re, im);
    const row = new Float32Array(BANDS);
    for (let b = 0; b < BANDS; b += 1) {
      let sum = 1e-10;
      for (let k = Math.floor(edges[b]!); k <= Math.ceil(edges[b + 1]!) && k < size / 2; k += 1) sum += re[k]! ** 2 + im[k]! ** 2;
      row[b] = Math.log(sum);
    }
    rows.push(row);
  }
  // Remove each band's mean: the same words at another loudness or sample rate look alike.
  for (let b = 0; b < BANDS; b += 1) {
    let mean = 0;
    for (const row of rows) mean += row[b]!;
    mean /= rows.length;
    for (const row of rows) row[b]! -= mean;
  }
  return { rows, energy };
}

/** The first frame from `from` where speech begins: energy above 1% of the loudest frame's (-20 dB). */
export function speechOnset(energy: Float64Array, from = 0, to = energy.length): number {
  let peak = 0;
  for (let i = from; i < to; i += 1) peak = Math.max(peak, energy[i]!);
  for (let i = from; i < to; i += 1) if (energy[i]! >= peak * 0.01) return i;
  return from;
}

/**
 * Dynamic time warping of `reference` onto `recording` (rows of features), within `band` frames of
 * the straight line between their starts and ends. Answers, for every reference frame, the first
 * recording frame paired with it.
 */
export function warp(reference: Float32Array[], recording: Float32Array[], band: number): Int32Array {
  const n = reference.length;
  const m = recording.length;
  const width = 2 * band + 1;
  const centre = (i: number) => Math.round((i * (m - 1)) / Math.max(1, n - 1));
  const cost = new Float32Array(n * width).fill(Infinity);
  // 0: diagonal, 1: from the previous reference frame, 2: from the previous recording frame.
  const from = new Uint8Array(n * width);
  const distance = (i: number, j: number) => {
    const a = reference[i]!;
    const b = recording[j]!;
    let sum = 0;
    for (let k = 0; k < a.length; k += 1) sum += (a[k]! - b[k]!) ** 2;
    return Math.sqrt(sum);
  };
  const at = (i: number, j: number) => {
    const k = j - centre(i) + band;
    return k >= 0 && k < width ? i * width + k : -1;
  };
  for (let i = 0; i < n; i += 1) {
    const lo = Math.max(0, centre(i) - band);
    const hi = Math.min(m - 1, centre(i) + band);
    for (let j = lo; j <= hi; j += 1) {
      const here = at(i, j);
      const d = distance(i, j);
      if (i === 0 && j === 0) {
        cost[here] = d;
        continue;
      }
      let best = Infinity;
      let move = 0;
      const diagonal = i > 0 && j > 0 ? at(i - 1, j - 1) : -1;
      const up = i > 0 ? at(i - 1, j) : -1;
      const left = j > 0 ? at(i, j - 1) : -1;
      if (diagonal >= 0 && cost[diagonal]! < best) [best, move] = [cost[diagonal]!, 0];
      if (up >= 0 && cost[up]! < best) [best, move] = [cost[up]!, 1];
      if (left >= 0 && cost[left]! < best) [best, move] = [cost[left]!, 2];
      if (best === Infinity) continue;
      cost[here] = best + d;
      from[here] = move;
    }
  }
  if (at(n - 1, m - 1) < 0 || cost[at(n - 1, m - 1)] === Infinity) throw new Error('the band is too narrow to pair the ends');
  const firstPaired = new Int32Array(n).fill(-1);
  for (let i = n - 1, j = m - 1; ;) {
    firstPaired[i] = j;
    if (i === 0 && j === 0) break;
    const move = from[at(i, j)];
    if (move === 0) [i, j] = [i - 1, j - 1];
    else if (move === 1) i -= 1;
    else j -= 1;
  }
  return firstPaired;
}
