package replay
