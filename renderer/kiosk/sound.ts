/**
 * Sounds are synthesized, so they ship with the page and need no file or
 * network. `standardSound` names one of them; an unknown name plays the beep.
 */
const SOUNDS: Record<string, { tones: number[]; ms: number; type: OscillatorType }> = {
  beep: { tones: [1568], ms: 90, type: 'square' },
  chime: { tones: [1319, 1760], ms: 110, type: 'sine' },
  ding: { tones: [2093], ms: 220, type: 'triangle' },
};

/** A player that opens its audio output on the first sound. */
export function soundPlayer(): (name: string | undefined) => void {
  let context: AudioContext | undefined;
  return (name) => {
    const sound = SOUNDS[name ?? 'beep'] ?? (SOUNDS.beep as (typeof SOUNDS)[string]);
    context ??= new AudioContext();
    let start = context.currentTime;
    for (const tone of sound.tones) {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.type = sound.type;
      osc.frequency.value = tone;
      gain.gain.setValueAtTime(0.15, start);
      gain.gain.exponentialRampToValueAtTime(0.001, start + sound.ms / 1000);
      osc.connect(gain).connect(context.destination);
      osc.start(start);
      osc.stop(start + sound.ms / 1000);
      start += sound.ms / 1000;
    }
  };
}
