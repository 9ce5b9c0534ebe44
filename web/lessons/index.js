// The lessons, in the order of the notebooks.
import cross from './cross.js';
import encoder from './encoder.js';
import learn from './learn.js';
import lecture from './lecture.js';
import multihead from './multihead.js';
import qkv from './qkv.js';
import scaling from './scaling.js';
import space from './space.js';
import trick from './trick.js';

export const lessons = [trick, qkv, encoder, cross, multihead, scaling, space, learn, lecture];
