# Stack O' Cats' bag and the cats set out before play: the setup steps
# nobody needs to report, a cat drawn at random, a set-up cat put in its
# place, and which colours a report may name. A part of the game
# (catnip.rules.stack.Stack is a Bag), over its colour counts, indexed like
# self.colours with black last.


class Bag:
    def advance_setup(self):
        """Carry out the setup steps nobody needs to report; in digital mode
        that is all of them. Returns their public events."""
        events = []
        digital = self.config["draw"] == "digital"
        while self.steps:
            step = self.steps[0]
            if step == "join":
                n = self.box[self.black]
                self.bag[self.black] += n
                self.box[self.black] = 0
                events.append({"type": "join", "black_cats": n})
            elif step == "table":
                for i in (self.black, self.colours.index(self.config["table_colour"])):
                    self.table[i] += self.bag[i] + self.box[i]
                    self.bag[i] = self.box[i] = 0
                events.append({"type": "table", "cats": sum(self.table)})
            elif digital:
                self.set_up_cat(step, self.random_cat(step == "out_nonblack"))
            else:
                return events
            self.steps.pop(0)
        return events

    def random_cat(self, nonblack):
        """A cat drawn uniformly from the bag, by colour index."""
        kinds = self.black if nonblack else self.black + 1
        r = self.rng.below(sum(self.bag[:kinds]))
        i = 0
        while r >= self.bag[i]:
            r -= self.bag[i]
            i += 1
        return i

    def set_up_cat(self, step, i):
        """Cat `i` leaves the bag for the base or out of play."""
        self.bag[i] -= 1
        if step == "base":
            self.base[i] += 1
            self.tower += 1
            if i == self.black and self.counts_black:
                self.tower_black += 1
        else:
            self.removed[i] += 1

    def choosable(self, step):
        """Colour indexes the player may report for a setup, take or drew step."""
        counts = self.table if step == "take" else self.bag
        kinds = self.black if self.steps and self.steps[0] == "out_nonblack" else self.black + 1
        return [i for i in range(kinds) if counts[i]]
