import { FRAME_SECONDS, features, speechOnset, warp } from '../tools/speechAlign';

/** A "word": a tone sweep of `seconds` from `hz`, at 16 kHz. */
function sweep(hz: number, seconds: number, rate: number, amplitude = 0.5): Float32Array {
  const out = new Float32Array(Math.round(seconds * rate));
  let phase = 0;
  for (let i = 0; i < out.length; i += 1) {
    phase += (2 * Math.PI * (hz + (hz * i) / out.length)) / rate;
    out[i] = amplitude * Math.sin(phase);
  }
  return out;
}

function join(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The bench's measure (npm run bench:subtitles) finds words moved by other pauses and tempo. */
describe('speech alignment (the bench’s independent measure)', () => {
  test('maps each word of a reference onto the recording within 30 ms', () => {
    const words = [300, 520, 410, 760, 610, 350, 880, 470];
    // The recording: words 0.30-0.45 s long with short and long pauses, at 22 050 Hz, quieter.
    const recordingRate = 22050;
    const parts: Float32Array[] = [new Float32Array(Math.round(0.2 * recordingRate))];
    const starts: number[] = [];
    let time = 0.2;
    words.forEach((hz, i) => {
      starts.push(time);
      const length = 0.3 + (i % 3) * 0.07;
      parts.push(sweep(hz, length, recordingRate, 0.2));
      const pause = i % 2 === 0 ? 0.05 : 0.6;
      parts.push(new Float32Array(Math.round(pause * recordingRate)));
      time += length + pause;
    });
    const recording = features(join(parts), recordingRate);
    // The reference: each word alone, with its own silence around it, at 48 kHz and a different tempo.
    const referenceRate = 48000;
    const refParts: Float32Array[] = [];
    const refOnsets: number[] = [];
    let refTime = 0;
    words.forEach((hz, i) => {
      refParts.push(new Float32Array(Math.round(0.25 * referenceRate)));
      refTime += 0.25;
      refOnsets.push(refTime);
      const length = (0.3 + (i % 3) * 0.07) * 1.1;
      refParts.push(sweep(hz, length, referenceRate));
      refTime += length;
    });
    const reference = features(join(refParts), referenceRate);
    const paired = warp(reference.rows, recording.rows, 300);
    refOnsets.forEach((onset, i) => {
      const frame = speechOnset(reference.energy, Math.round(onset / FRAME_SECONDS) - 5, Math.round(onset / FRAME_SECONDS) + 20);
      const found = paired[frame]! * FRAME_SECONDS;
      expect({ word: i, error: Math.abs(found - starts[i]!) < 0.03 }).toEqual({ word: i, error: true });
    });
  });
});
