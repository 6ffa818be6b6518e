import math
import wave

import numpy as np
import pytest

from spectrum import sound


def edge_train(half_period: int, count: int, start: int = 0) -> list[int]:
    return [start + half_period * i for i in range(count)]


def test_frequency_of_a_known_edge_train():
    half_period = 3977  # 3.5 MHz / (2 * 3977) = 440.03 Hz
    samples = sound.edges_to_samples(edge_train(half_period, 2 * 440 + 1))
    expected = 3_500_000 / (2 * half_period)

    rising = np.count_nonzero((samples[:-1] <= 0) & (samples[1:] > 0))
    seconds = len(samples) / 44100
    assert rising / seconds == pytest.approx(expected, rel=0.01)

    spectrum = np.abs(np.fft.rfft(samples.astype(float)))
    frequencies = np.fft.rfftfreq(len(samples), 1 / 44100)
    assert frequencies[np.argmax(spectrum)] == pytest.approx(expected, abs=2)


def test_duration_runs_to_the_last_edge():
    edges = edge_train(1000, 3501)  # 3,500,000 T-states = 1 s
    assert len(sound.edges_to_samples(edges)) == 44100
    assert len(sound.edges_to_samples(edges, rate=22050)) == 22050
    assert len(sound.edges_to_samples([0, 100])) == math.ceil(100 / (3_500_000 / 44100))


def test_levels_and_silence():
    samples = sound.edges_to_samples([35_000, 70_000, 105_000], level=1000)
    assert (samples[:441] == 0).all()  # 10 ms of silence before the first edge
    assert (samples[445:878] == 1000).all()
    assert (samples[885:1320] == -1000).all()
    assert len(samples) == 1323


def test_box_filter_averages_across_a_sample():
    # At 35 kHz a sample is exactly 100 T-states long.
    samples = sound.edges_to_samples([0, 150, 300], rate=35_000, level=1000)
    assert samples.tolist() == [1000, 0, -1000]
    samples = sound.edges_to_samples([0, 125, 200], rate=35_000, level=1000)
    assert samples.tolist() == [1000, -500]  # 25 T high, 75 T low


def test_no_sound_from_fewer_than_two_edges():
    assert sound.edges_to_samples([]).size == 0
    assert sound.edges_to_samples([500]).size == 0
    assert sound.edges_to_samples([]).dtype == np.int16


def test_edges_out_of_order_are_refused():
    with pytest.raises(ValueError):
        sound.edges_to_samples([0, 200, 100])


def test_wav_round_trip(tmp_path):
    samples = sound.edges_to_samples(edge_train(2000, 101))
    path = tmp_path / "beep.wav"
    sound.write_wav(path, samples)
    with wave.open(str(path), "rb") as wav:
        assert (wav.getnchannels(), wav.getsampwidth(), wav.getframerate()) == (1, 2, 44100)
        read_back = np.frombuffer(wav.readframes(wav.getnframes()), dtype="<i2")
    np.testing.assert_array_equal(read_back, samples)


def test_a_front_end_that_renders_the_sound_itself_gets_the_steps_alone_and_the_same_time_passes():
    from spectrum import Spectrum
    from spectrum.frontends import HeadlessFrontend

    played, stepped = Spectrum(HeadlessFrontend()), Spectrum(HeadlessFrontend())
    stepped.speaker_steps = []  # as a served session's machine: the terminal renders the sound
    for machine in (played, stepped):
        machine.beep(0.04, 12)
        machine.wait_frame()
    assert len(played.frontend.audio()) > 0 and len(stepped.frontend.audio()) == 0
    assert stepped.speaker_steps and stepped.t_states == played.t_states
    assert stepped.sound_onsets == played.sound_onsets
