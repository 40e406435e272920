"""The engine's tuning, in game time (so nothing depends on the machine), and tile distance."""

from __future__ import annotations

from datetime import timedelta

from game.engine.state import Pos

PERCEIVE_EVERY = 3  # ticks between two looks around, per resident (staggered)
PERCEIVE_RADIUS = 6
PERCEIVE_BANDWIDTH = 6
OBSERVE_BATCH = 6  # flush buffered observations to the mind once this many are waiting
OBSERVE_MAX_AGE = timedelta(minutes=30)  # ... or once the oldest has waited this long
# a person or thing made salient to a resident (news to react to) is not again within this, per subject:
# no call is asked about it.  (The mind keeps its own, shorter, per text: MindConfig.percept_cooldown_min.)
SUBJECT_COOLDOWN = timedelta(hours=2)
OBJECT_NEWS = timedelta(minutes=30)  # an object change stays salient this long
# a hazard (a fire, a leak) is noticed by the awake in the same building this far off, from any
# room (the smoke, the water on the floor), and asked about again this soon while nobody deals with it
HAZARD_REACH = 24
HAZARD_AGAIN = timedelta(minutes=5)
TALK_RANGE = 4  # tiles (Chebyshev) within which two can talk
TALK_COOLDOWN = timedelta(hours=1)  # two residents do not start a new talk within this
LINE_GAP = timedelta(minutes=1)  # between two lines of a talk written whole (3 real seconds at normal pace)
# the longest a talk cut short waits for its rest to be written (talks/cuts.py): at a busy dawn on 2026-12-02 one
# waited 29 game minutes, two residents standing there
GOES_ON_WAIT = timedelta(minutes=5)
PLAYER_SILENCE = timedelta(minutes=30)  # a resident stops waiting for the player's answer after this
# a resident who decided to talk with someone who walked off while it thought (at play pace a
# reaction comes minutes of game time after the sight) goes after them this far, this long
SEEK_RADIUS = 30
SEEK_TIME = timedelta(minutes=15)
# ask for a resident's next window of steps once the ones decided run out within this (0: only
# when they have run out); at normal pace 30 game minutes are 90 real seconds, about one call
AHEAD = timedelta(minutes=30)
# ... or, in real time, 1.5 times the longest the last windows asked ahead took to come, up to this
AHEAD_MAX = timedelta(minutes=120)
# ... and, asleep, the day plan with its first window this long before waking (three calls in a
# row: at normal pace on two slow cores they took 40 game minutes of the morning's routine)
WAKE_AHEAD = timedelta(minutes=90)
# ... but not while the plan of one who wakes this much earlier is being asked (the first to wake first)
WAKE_GROUP = timedelta(minutes=15)
# ... or, asleep while the model server has room, this long before waking (a few such plans in flight
# in the town, and only while nothing else is: decisions/capacity.py): the night is when the model has room
NIGHT_AHEAD = timedelta(hours=6)
# ... or, awake while the model server has room, the next window up to this long before the steps in
# hand run out: the calls the next crowd (the arrivals at work, the lunch hour) would make, made in
# the lull before it.  A replan throws such a window away; a lull costs nothing
IDLE_AHEAD = timedelta(hours=3)  # (past AHEAD_MAX, the longest the look ahead asks anyway)
# before the first tick of a real-time run, the residents up or waking within this plan their day
# while the start screen waits (decisions/prepare.py); the rest are asked ahead while they sleep
PREPARE_AHEAD = timedelta(minutes=30)


def chebyshev(a: Pos, b: Pos) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))
