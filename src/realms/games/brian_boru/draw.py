def draw(state=None):
    return "<svg/>"
