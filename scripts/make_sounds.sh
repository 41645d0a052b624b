#!/usr/bin/env bash
# Makes the sound files under assets/ (synthesized with sox; CC0, see
# assets/LICENSE-SOUNDS.md). The files are committed: this script is how they
# were made, to remake or vary them, not a build step.
set -euo pipefail
cd "$(dirname "$0")/../assets"
s=sounds m=music
# A laser: mono, 48 kHz, 16-bit WAV, a falling sweep.
sox -n -r 48000 -b 16 -c 1 $s/laser.wav synth 0.25 sine 1800-300 fade q 0.005 0.25 0.12 gain -4
# Three takes of a footstep: mono, 44.1 kHz, 16-bit WAV, band-passed noise of
# three lengths and colours.
sox -n -r 44100 -b 16 -c 1 $s/step_1.wav synth 0.11 brownnoise bandpass 420 1.2q fade q 0.002 0.11 0.08 gain -n -6
sox -n -r 44100 -b 16 -c 1 $s/step_2.wav synth 0.13 brownnoise bandpass 360 1.0q fade q 0.002 0.13 0.10 gain -n -7
sox -n -r 44100 -b 16 -c 1 $s/step_3.wav synth 0.10 brownnoise bandpass 500 1.4q fade q 0.002 0.10 0.07 gain -n -6
# A coin: mono, 22.05 kHz Ogg Vorbis, two notes.
sox -n -r 22050 -c 1 /tmp/coin_a.wav synth 0.08 square 988 gain -16
sox -n -r 22050 -c 1 /tmp/coin_b.wav synth 0.30 square 1319 fade q 0 0.30 0.28 gain -16
sox /tmp/coin_a.wav /tmp/coin_b.wav -C 3 $s/coin.ogg
# An explosion: stereo, 44.1 kHz Ogg Vorbis, low noise decaying over a second,
# a different noise on each side.
sox -n -r 44100 -c 2 $s/explosion.ogg synth 1.2 brownnoise brownnoise lowpass 900 fade q 0.003 1.2 1.1 gain -n -3
# A music loop: stereo, 48 kHz Ogg Vorbis, eight seconds of four chords.
for chord in "220 277.18 329.63" "174.61 220 261.63" "130.81 164.81 196" "196 246.94 293.66"; do
    set -- $chord
    sox -n -r 48000 -c 2 /tmp/chord_$1.wav synth 2 triangle $1 triangle $2 triangle $3 remix 1,2 2,3 fade q 0.05 2 0.3 gain -n -9
done
sox /tmp/chord_220.wav /tmp/chord_174.61.wav /tmp/chord_130.81.wav /tmp/chord_196.wav -C 3 $m/theme.ogg
# Wind for ambience: stereo, 32 kHz Ogg Vorbis, six seconds of slow pink noise.
sox -n -r 32000 -c 2 $m/wind.ogg synth 6 pinknoise pinknoise lowpass 700 tremolo 0.3 60 fade q 0.5 6 0.5 gain -n -12
rm -f /tmp/coin_a.wav /tmp/coin_b.wav /tmp/chord_*.wav
