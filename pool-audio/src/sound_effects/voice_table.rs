//! The voice table: every voice as the manager sees it (see
//! `voice_info.rs`), read without an allocation.

use kira::Decibels;

use super::SoundEffects;
use crate::bank::Settle;
use crate::ears::{ListenerState, spatial_gains};
use crate::handles::VoiceKey;
use crate::level::{amplitude, decibels};
use crate::mix::MixTarget;
use crate::voice_info::VoiceInfo;
use crate::voice_pool::{Place, VoiceRecord};

impl SoundEffects {
    /// Every voice, real and virtual, as of the last update and the calls
    /// since: its sound, state and why it is virtual, its rank, the level
    /// it is heard at in each channel (see [`VoiceInfo::level`]), where it
    /// is and who plays it. In no order; allocates nothing, so a debug view
    /// reads it every frame.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings, VoiceState};
    /// # let hum = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::from_mono(0.5); 4800].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let engine = sfx.add_sound("engine", hum.loop_region(..), SoundSettings::default().first_volume(-6.0))?;
    /// let near = sfx.play(engine, PlayParams::default().position([2.0, 0.0, 0.0]))?;
    /// sfx.update(1.0 / 60.0)?;
    /// let info = sfx.voices().find(|v| v.voice == near).unwrap();
    /// assert_eq!((info.sound, info.state, info.distance), (engine, VoiceState::Real, Some(2.0)));
    /// // To the right: louder in the right ear.
    /// assert!(info.level[1].0 > info.level[0].0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn voices(&self) -> impl Iterator<Item = VoiceInfo> + '_ {
        let listener = ListenerState {
            position: self.now.listener,
            orientation: (self.now.listener_orientation)
                .unwrap_or(ListenerState::ORIGIN.orientation),
            velocity: [0.0; 3],
        };
        let all = self.mix_db(MixTarget::SoundEffects).map_or(0.0, |db| db.0);
        (self.voices.iter()).map(move |(key, record)| self.info(key, record, (listener, all)))
    }

    /// The voice table as text, for a debug view or a replay stopped at a
    /// moment: a header, then a line per voice (the real ones first, at
    /// most `rows`, then how many more): its number, sound, state and why
    /// it is virtual, priority, audibility and level in each channel (dB),
    /// distance and playhead. Written into a `String` kept from frame to
    /// frame, it allocates nothing once the string has grown.
    ///
    /// ```
    /// # use kira::{AudioManager, AudioManagerSettings};
    /// # use pool_audio::{OfflineBackend, PlayParams, SoundEffects, SoundEffectsSettings, SoundSettings};
    /// # let hum = kira::sound::static_sound::StaticSoundData { sample_rate: 48_000, frames: vec![kira::Frame::from_mono(0.5); 4800].into(), settings: Default::default(), slice: None };
    /// # let mut manager = AudioManager::<OfflineBackend>::new(AudioManagerSettings::default())?;
    /// let mut sfx = SoundEffects::new(&mut manager, SoundEffectsSettings::default())?;
    /// let engine = sfx.add_sound("engine", hum.loop_region(..), SoundSettings::default())?;
    /// sfx.play(engine, PlayParams::default().position([3.0, 0.0, 0.0]))?;
    /// sfx.update(1.0 / 60.0)?;
    /// let table = sfx.voice_table(20).to_string();
    /// assert!(table.lines().nth(1).unwrap().contains("engine"));
    /// assert!(table.lines().nth(1).unwrap().contains("real"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn voice_table(&self, rows: usize) -> crate::voices::VoiceTable<'_> {
        crate::voices::VoiceTable { sfx: self, rows }
    }

    /// What `record` (the voice `key`) is, heard by `listener` through the
    /// mix's every-voice level `all` (dB).
    fn info(
        &self,
        key: VoiceKey,
        record: &VoiceRecord,
        (listener, all): (ListenerState, f32),
    ) -> VoiceInfo {
        let entry = self.sounds.entry(record.sound);
        let group = entry.and_then(|e| e.settings.group);
        let mix = group.and_then(|g| self.mix_db(MixTarget::Group(g)).ok());
        let mix = amplitude(f64::from(mix.map_or(0.0, |db| db.0) + all));
        let real = matches!(record.place, Place::Real { .. });
        let copy = entry.map_or(0.0, |entry| {
            let Some(budget) = entry.recording(0).map(|r| r.source.budget) else {
                return 0.0;
            };
            // A virtual voice as it would be: the newest copy.
            let rank = if real { entry.copy_rank(key) } else { 0 };
            let mut settle = Settle::default();
            (0..=rank)
                .map(|_| settle.next(&budget, false).1)
                .last()
                .unwrap_or(0.0)
        });
        let pan = entry
            .and_then(|e| e.recording(record.recording))
            .map_or([1.0; 2], |r| r.source.pan(record.panning));
        let spatial = record.position.map_or([1.0; 2], |at| {
            spatial_gains(at, (record.spatial_blend, &record.distances), listener)
        });
        // The loudness window: the voice's own gain (its loudness over the
        // floor) and its group's (the floor under the window's top).
        let window = (record.window_db.and(self.now.window)).map_or(0.0, |w| w.floor - w.top);
        let gain = f64::from(copy)
            * record.volume()
            * f64::from(record.loudness)
            * amplitude(window)
            * f64::from(record.cues.muffled.gain)
            * mix;
        let level = [0, 1].map(|c| {
            let amplitude = gain * f64::from(pan[c]) * f64::from(spatial[c]);
            Decibels(decibels(amplitude).max(-200.0) as f32)
        });
        let recording = entry.and_then(|e| e.recording(record.recording));
        let rate = recording.map_or(1.0, |r| f64::from(r.source.sample_rate));
        let mut sends = [None; crate::MAX_SENDS];
        if let Some(entry) = entry {
            for (i, send) in entry.settings.sends.iter().enumerate() {
                sends[i] = Some((send.bus, Decibels(record.send_levels[i])));
            }
        }
        VoiceInfo {
            voice: self.voices.handle(key),
            sound: self.sounds.id_of(record.sound),
            recording: usize::from(record.recording),
            state: self.voices.state(key),
            why_virtual: record.why.filter(|_| !real),
            waiting: record.wait != crate::voice_pool::StartWait::Begun,
            priority: record.rank.priority,
            audibility: record.rank.level,
            level,
            position: record.position,
            distance: (record.position)
                .map(|at| crate::audibility::distance(at, listener.position)),
            max_distance: record.position.map(|_| record.distances.max),
            owner: record.owner,
            group,
            bus: group.and_then(|g| self.groups.settings(g.index).bus),
            sends,
            playhead: self.voices.playhead(key).map(|frames| frames / rate),
        }
    }
}
